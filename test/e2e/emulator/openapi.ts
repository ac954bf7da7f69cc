/**
 * Response conformance against GitHub's OpenAPI description (@octokit/openapi,
 * generated/api.github.com.json). The 13 MB document is read once per process; OpenAPI 3.0
 * `nullable` is rewritten to JSON Schema, and validators are compiled lazily per
 * (operation, status) and cached.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AjvModule, { type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

type Schema = Record<string, unknown>;

interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, Schema> }>>;
  components: Record<string, Record<string, Schema>>;
  "x-webhooks"?: Record<string, Record<string, Schema>>;
}

// ajv and ajv-formats are CommonJS with `exports.default`; take whichever the loader hands over.
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as unknown as typeof AjvModule.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as typeof addFormatsModule.default;

const DOC_ID = "github-openapi";

/** Rewrite OpenAPI 3.0 `nullable: true` into JSON Schema, in place, across the whole document. */
function rewriteNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const x of node) rewriteNullable(x);
    return;
  }
  if (!node || typeof node !== "object") return;
  const obj = node as Schema;
  for (const [k, v] of Object.entries(obj)) {
    if (k === "example" || k === "examples") continue;
    rewriteNullable(v);
  }
  if (obj.nullable !== true) return;
  delete obj.nullable;
  if (typeof obj.type === "string") {
    obj.type = [obj.type, "null"];
    if (Array.isArray(obj.enum) && !obj.enum.includes(null)) obj.enum = [...obj.enum, null];
  } else {
    // `{ nullable, allOf/oneOf/$ref… }`: move the schema into an anyOf beside null.
    const rest: Schema = {};
    for (const k of Object.keys(obj)) {
      if (k === "description" || k === "title") continue;
      rest[k] = obj[k];
      delete obj[k];
    }
    obj.anyOf = [{ type: "null" }, rest];
  }
}

/**
 * Known defects of the description itself, fixed before use. Each entry says what is wrong.
 * - `GET /app/installations` inlines `installation.account` as `allOf: [simple-user, enterprise]`,
 *   which no account can satisfy; the `installation` component says `anyOf`, as GitHub answers.
 * - A check run's `conclusion` omits `stale`, which GitHub sets on runs incomplete for 14 days
 *   (and sends in `check_run.completed`); the check-suite schema already lists it.
 */
function applyErrata(doc: OpenApiDoc): void {
  addStaleConclusion(doc.components.schemas?.["check-run"]);
  for (const [key, hook] of Object.entries(doc["x-webhooks"] ?? {})) if (key.startsWith("check-run-")) addStaleConclusion(hook);
  const list = doc.paths["/app/installations"]?.get?.responses?.["200"] as Schema | undefined;
  const items = ((list?.content as Record<string, { schema?: Schema }> | undefined)?.["application/json"]?.schema?.items ?? undefined) as
    { properties?: Record<string, unknown> } | undefined;
  if (items?.properties?.account) items.properties.account = { $ref: "#/components/schemas/installation/properties/account" };
}

/** Adds `stale` to every check-run `conclusion` enum under `node` (in place). */
function addStaleConclusion(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addStaleConclusion);
  if (!node || typeof node !== "object") return;
  const conclusion = (node as { properties?: { conclusion?: { enum?: unknown[] } } }).properties?.conclusion;
  if (conclusion?.enum?.includes("timed_out") && !conclusion.enum.includes("stale")) conclusion.enum.push("stale");
  for (const value of Object.values(node)) addStaleConclusion(value);
}

/** Point local `#/components/...` refs of an inline schema at the registered document. */
function rebaseRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebaseRefs);
  if (!node || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [k, v] of Object.entries(node as Schema)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${DOC_ID}${v}` : rebaseRefs(v);
  }
  return out;
}

export interface ResponseCheck {
  /** e.g. `GET /repos/{owner}/{repo}/pulls/{pull_number}` */
  operation: string;
  status: number;
  body: unknown;
  contentType?: string;
}

export class OpenApiValidator {
  private static instance: OpenApiValidator | undefined;
  private readonly ajv: InstanceType<typeof Ajv>;
  private readonly cache = new Map<string, ValidateFunction | null>();

  private constructor(private readonly doc: OpenApiDoc) {
    applyErrata(doc);
    rewriteNullable(doc.components);
    for (const item of Object.values(doc.paths)) rewriteNullable(item);
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false, inlineRefs: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  }

  /** The process-wide validator (the document is parsed on first use). */
  static shared(): OpenApiValidator {
    if (!OpenApiValidator.instance) {
      const require = createRequire(import.meta.url);
      const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
      OpenApiValidator.instance = new OpenApiValidator(JSON.parse(readFileSync(file, "utf8")) as OpenApiDoc);
    }
    return OpenApiValidator.instance;
  }

  hasOperation(method: string, path: string): boolean {
    return Boolean(this.doc.paths[path]?.[method.toLowerCase()]);
  }

  operationId(method: string, path: string): string | undefined {
    return this.doc.paths[path]?.[method.toLowerCase()]?.operationId;
  }

  private resolveResponse(response: Schema): Schema {
    const ref = response.$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/responses/")) {
      return this.doc.components.responses?.[ref.slice("#/components/responses/".length)] ?? {};
    }
    return response;
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.compile(rebaseRefs(schema) as Schema);
      this.cache.set(key, v);
    }
    return v;
  }

  private errorsOf(v: ValidateFunction, body: unknown): string[] {
    if (v(body)) return [];
    return (v.errors ?? [])
      .slice(0, 20)
      .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "invalid"}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  }

  /** Problems with one response; empty when it conforms. */
  validate(check: ResponseCheck): string[] {
    const space = check.operation.indexOf(" ");
    const method = check.operation.slice(0, space).toLowerCase();
    const path = check.operation.slice(space + 1);
    const op = this.doc.paths[path]?.[method];
    if (!op) return [`operation ${check.operation} is not in GitHub's OpenAPI description`];
    const declared = op.responses?.[String(check.status)];
    if (!declared) {
      if (check.status >= 400) return this.validateError(check);
      return [`status ${check.status} is not a documented response of ${op.operationId}`];
    }
    const content = this.resolveResponse(declared).content as Record<string, { schema?: unknown }> | undefined;
    const json = content?.["application/json"] ?? content?.["application/scim+json"];
    const isJson = (check.contentType ?? "application/json").includes("json");
    if (!json?.schema) {
      if (check.body !== undefined && isJson) return [`${op.operationId} ${check.status} documents no JSON body, got one`];
      return [];
    }
    if (!isJson) return []; // raw media types (e.g. vnd.github.raw) have no JSON schema
    if (check.body === undefined) return [`${op.operationId} ${check.status} documents a JSON body, got none`];
    const v = this.validatorFor(`${check.operation} ${check.status}`, json.schema);
    return this.errorsOf(v, check.body).map((e) => `${op.operationId} ${check.status}: ${e}`);
  }

  /** Undocumented error statuses (401, injected faults, …) must still be GitHub's error JSON. */
  private validateError(check: ResponseCheck): string[] {
    const v = this.validatorFor("basic-error", {
      allOf: [{ $ref: "#/components/schemas/basic-error" }, { type: "object", required: ["message", "documentation_url"] }],
    });
    return this.errorsOf(v, check.body).map((e) => `${check.operation} ${check.status} (error body): ${e}`);
  }

  /** Validate a webhook payload against the `x-webhooks` schema of `event.action` (e.g. `issue-comment-created`). */
  validateWebhook(event: string, action: string | undefined, payload: unknown): string[] {
    const key = action ? `${event}-${action}`.replace(/_/g, "-") : event.replace(/_/g, "-");
    const hook = this.doc["x-webhooks"]?.[key]?.post as Schema | undefined;
    const schema = ((hook?.requestBody as Schema | undefined)?.content as Record<string, { schema?: unknown }> | undefined)?.[
      "application/json"
    ]?.schema;
    if (!schema) return [`no x-webhooks schema for ${key}`];
    return this.errorsOf(this.validatorFor(`webhook ${key}`, schema), payload).map((e) => `webhook ${key}: ${e}`);
  }
}
