/** Editor preferences: read from the repository's .vscode/settings.json, overridden by parameters. */
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { readPreferences } from "../../src/tools/ts-preferences.js";

describe("ts-preferences", () => {
  it("reads the TypeScript extension's settings (JSON with comments), ignoring values TypeScript would not take", async () => {
    const workspace = new MemoryWorkspace({
      ".vscode/settings.json": [
        "{",
        "  // team settings",
        '  "typescript.preferences.quoteStyle": "single",',
        '  "typescript.preferences.importModuleSpecifier": "relative",',
        '  "typescript.preferences.importModuleSpecifierEnding": "sideways",',
        '  "editor.tabSize": 2,',
        "}",
      ].join("\n"),
    });
    expect(await readPreferences(workspace)).toEqual({ quotePreference: "single", importModuleSpecifierPreference: "relative" });
    expect(await readPreferences(workspace, { quotePreference: "double", importModuleSpecifierEnding: "js" })).toEqual({
      quotePreference: "double",
      importModuleSpecifierPreference: "relative",
      importModuleSpecifierEnding: "js",
    });
  });

  it("without settings: TypeScript's defaults (nothing set)", async () => {
    expect(await readPreferences(new MemoryWorkspace({ "a.ts": "" }))).toEqual({});
    expect(await readPreferences(new MemoryWorkspace({ ".vscode/settings.json": "not json" }))).toEqual({});
  });
});
