import { checkNames, DEFAULT_REPO_CONFIG, parseRepoConfig, requiredPermission } from "../../src/config/repo-config.js";

describe("repo config", () => {
  test("defaults: all tools, write to act, read for help and pending, stack steering, gate on", () => {
    expect(parseRepoConfig(null)).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
    expect(requiredPermission(DEFAULT_REPO_CONFIG, "ast_edit")).toBe("write");
    expect(requiredPermission(DEFAULT_REPO_CONFIG, "help")).toBe("read");
    expect([DEFAULT_REPO_CONFIG.steering, DEFAULT_REPO_CONFIG.gateCheck, DEFAULT_REPO_CONFIG.tools]).toEqual(["stack", true, undefined]);
    expect(DEFAULT_REPO_CONFIG.commandLimits).toEqual({ maxCommandsPerComment: 10, maxPending: 20 });
  });

  test("every setting is read", () => {
    const parsed = parseRepoConfig({
      tools: ["ast-edit"],
      permissions: { default: "maintain", resolve: "admin" },
      steering: "strict",
      gate_check: false,
      limits: { max_files: 10, max_file_bytes: 20, max_total_bytes: 30, max_commands_per_comment: 3, max_pending: 4 },
      commit_message: "{tool}: {label}\n\n{reason}",
      run_on_edit: true,
      agents: { may_resolve: ["discard", "apply"] },
    });
    expect(parsed).toEqual({
      ok: true,
      config: {
        tools: ["ast_edit"],
        permissions: { default: "maintain", help: "read", pending: "read", resolve: "admin" },
        steering: "strict",
        gateCheck: false,
        limits: { maxFiles: 10, maxFileBytes: 20, maxTotalBytes: 30 },
        commandLimits: { maxCommandsPerComment: 3, maxPending: 4 },
        commitMessage: "{tool}: {label}\n\n{reason}",
        runOnEdit: true,
        agentsMayResolve: ["discard", "apply"],
      },
    });
    expect(DEFAULT_REPO_CONFIG.runOnEdit).toBe(false);
    if (parsed.ok) expect(requiredPermission(parsed.config, "resolve")).toBe("admin");
  });

  test("agents may resolve nothing by default; may_resolve allows discard, apply, or both, and nothing else", () => {
    expect(DEFAULT_REPO_CONFIG.agentsMayResolve).toEqual([]);
    expect(parseRepoConfig({ agents: {} })).toEqual({ ok: true, config: DEFAULT_REPO_CONFIG });
    const discard = parseRepoConfig({ agents: { may_resolve: ["discard"] } });
    expect(discard.ok && discard.config.agentsMayResolve).toEqual(["discard"]);
    expect(parseRepoConfig({ agents: { may_resolve: ["undo"], may_merge: true } })).toEqual({
      ok: false,
      errors: ["agents.may_merge: unknown key", 'agents.may_resolve.0: must be one of discard, apply (got "undo")'],
    });
    expect(parseRepoConfig({ agents: { may_resolve: "apply" } })).toEqual({
      ok: false,
      errors: ['agents.may_resolve: must be a list (got "apply")'],
    });
  });

  test("unknown keys and bad values are named", () => {
    expect(parseRepoConfig({ steering: "loose", limits: { max_files: 0, other: 1 }, colour: "red" })).toEqual({
      ok: false,
      errors: [
        "colour: unknown key",
        'steering: must be one of stack, strict (got "loose")',
        "limits.other: unknown key",
        "limits.max_files: must be at least 1 (got 0)",
      ],
    });
    const parsed = parseRepoConfig({ tools: ["ast_edit", "teleport"], permissions: { nope: "read" } });
    expect(parsed.ok && checkNames(parsed.config, ["ast_edit", "resolve", "help", "pending"])).toEqual([
      'tools: unknown tool "teleport"',
      "permissions.nope: unknown command",
    ]);
  });

  test.each(["ast-edit", "ast_edit", "AST-Edit", "Ast_Edit"])("%s in tools and permissions means /ast-edit", (spelling) => {
    const parsed = parseRepoConfig({ tools: [spelling], permissions: { [spelling]: "admin" } });
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    expect(checkNames(parsed.config, ["ast_edit", "resolve", "help", "pending"])).toEqual([]);
    expect(parsed.config.tools).toEqual(["ast_edit"]);
    // The parser hands the runtime `ast_edit` for `/AST-Edit`, `/ast_edit`…: all need admin.
    for (const typed of ["ast_edit", "ast-edit", "AST-EDIT"]) expect(requiredPermission(parsed.config, typed)).toBe("admin");
    expect(requiredPermission(parsed.config, "move")).toBe("write");
  });
});
