/** The tools a runtime knows, by name; what they are is the composition's business (tools/index.ts). */
import { restTool } from "./apply-part.js";
import { normaliseCommandName } from "./commands.js";
import { createToolAPI } from "./execution.js";
import type { AnyToolDefinition, CustomToolFactory, ToolAPI } from "./tool.js";

/** Commands the runtime answers itself; no tool may take these names. */
export const RESERVED_COMMANDS = ["resolve", "help", "pending"] as const;

export class ToolRegistry {
  private readonly tools = new Map<string, AnyToolDefinition>();
  readonly api: ToolAPI = createToolAPI();
  /**
   * The runtime's own tools, behind a command of its own (undo: `/resolve undo`): replayed like
   * any tool, never listed or called by name.
   */
  private readonly hidden = new Map<string, AnyToolDefinition>();

  constructor() {
    // What `/resolve apply --only` leaves pending: every runtime can replay it.
    this.registerHidden(restTool(this.api, (name) => this.get(name)));
  }

  register(tool: AnyToolDefinition): void {
    if (!tool || typeof tool.name !== "string" || !/^[a-z][a-z0-9_-]*$/i.test(tool.name)) {
      throw new Error(`A tool needs a name of letters, digits, "-" or "_" (got ${JSON.stringify(tool?.name)}).`);
    }
    if (typeof tool.execute !== "function") throw new Error(`Tool ${tool.name} has no execute().`);
    if ((tool.parameters as { type?: unknown } | undefined)?.type !== "object") {
      throw new Error(`Tool ${tool.name} needs an object schema as parameters (pi.typebox.Type.Object).`);
    }
    const key = normaliseCommandName(tool.name);
    if ((RESERVED_COMMANDS as readonly string[]).includes(key) || this.hidden.has(key))
      throw new Error(`Tool name ${tool.name} is reserved.`);
    if (this.tools.has(key)) throw new Error(`Two tools are named ${tool.name}.`);
    this.tools.set(key, tool);
  }

  /** A tool of the runtime's own (undo): found by `get` for replay, never by `command` or `list`. */
  registerHidden(tool: AnyToolDefinition): void {
    const key = normaliseCommandName(tool.name);
    if (this.tools.has(key) || this.hidden.has(key)) throw new Error(`Two tools are named ${tool.name}.`);
    this.hidden.set(key, tool);
  }

  async registerFactory(factory: CustomToolFactory): Promise<AnyToolDefinition> {
    const tool = await factory(this.api);
    this.register(tool);
    return tool;
  }

  /** Any tool a record may name, the runtime's own included (replay). */
  get(name: string): AnyToolDefinition | undefined {
    const key = normaliseCommandName(name);
    return this.tools.get(key) ?? this.hidden.get(key);
  }

  /** The tool a command calls by name (`/ast-edit`); never one of the runtime's own. */
  command(name: string): AnyToolDefinition | undefined {
    return this.tools.get(normaliseCommandName(name));
  }

  /** Tools sorted by name. */
  list(): AnyToolDefinition[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
