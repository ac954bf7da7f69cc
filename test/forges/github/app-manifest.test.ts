/**
 * The manifest Probot's setup page registers the app with is app.yml spread over Probot's own
 * (node_modules/probot/lib/manifest-creation.js, run here as it is). The webhook URL must be the
 * smee.io channel (WEBHOOK_PROXY_URL) or the address of the setup page, never a fixed placeholder.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

interface Manifest {
  hook_attributes: { url: string };
  default_permissions: Record<string, string>;
  default_events: string[];
}

interface ManifestCreationClass {
  new (): { getManifest(options: { pkg: Record<string, unknown>; baseUrl: string }): string };
}

test("the registered app sends its webhooks to the smee channel or to the public URL", async () => {
  const module = (await import(pathToFileURL(path.resolve("node_modules/probot/lib/manifest-creation.js")).href)) as {
    ManifestCreation: ManifestCreationClass;
  };
  const creation = new module.ManifestCreation();
  const saved = process.env.WEBHOOK_PROXY_URL;
  try {
    process.env.WEBHOOK_PROXY_URL = "https://smee.io/abc123";
    const local = JSON.parse(creation.getManifest({ pkg: {}, baseUrl: "http://localhost:3000" })) as Manifest;
    expect(local.hook_attributes).toEqual({ url: "https://smee.io/abc123" });
    expect(local.default_permissions).toMatchObject({ checks: "write", contents: "write", issues: "write" });
    delete process.env.WEBHOOK_PROXY_URL;
    const production = JSON.parse(creation.getManifest({ pkg: {}, baseUrl: "https://bot.example.org" })) as Manifest;
    expect(production.hook_attributes).toEqual({ url: "https://bot.example.org/" });
  } finally {
    if (saved === undefined) delete process.env.WEBHOOK_PROXY_URL;
    else process.env.WEBHOOK_PROXY_URL = saved;
  }
});

test("the app asks for the events ingress reads, and the permissions it writes with, nothing more", async () => {
  const module = (await import(pathToFileURL(path.resolve("node_modules/probot/lib/manifest-creation.js")).href)) as {
    ManifestCreation: ManifestCreationClass;
  };
  const manifest = JSON.parse(new module.ManifestCreation().getManifest({ pkg: {}, baseUrl: "https://bot.example.org" })) as Manifest;
  const { INGRESS_EVENTS } = await import("../../../src/forges/github/ingress.js");
  const read = [...new Set(INGRESS_EVENTS.map((event) => event.split(".")[0]!))].sort();
  expect([...manifest.default_events].sort()).toEqual(read);
  expect(manifest.default_events).toEqual(expect.arrayContaining(["pull_request_review_comment", "pull_request_review"]));
  expect(manifest.default_permissions).toEqual({
    checks: "write",
    contents: "write",
    pull_requests: "write",
    issues: "write",
    metadata: "read",
  });
});
