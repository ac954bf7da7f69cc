/**
 * The editor preferences TypeScript's refactorings take (ts.UserPreferences), with an editor's
 * defaults, read from where a repository keeps them for TypeScript: `.vscode/settings.json`
 * (`typescript.preferences.quoteStyle`, `…importModuleSpecifier`, `…importModuleSpecifierEnding`),
 * the settings the TypeScript extension passes to tsserver. tsconfig.json has no such options, and
 * `.editorconfig` is not read by TypeScript, so neither is consulted. Explicit parameters win.
 */
import { ts } from "ts-morph";
import type { WorkspaceReader } from "../core/tool.js";
import {
  MODULE_SPECIFIER_ENDINGS,
  MODULE_SPECIFIER_PREFERENCES,
  QUOTE_STYLES,
  type PreferenceParams as EditorPreferences,
} from "./ts-preference-params.js";

const SETTINGS = ".vscode/settings.json";
const KEYS: Record<keyof EditorPreferences, { setting: string; allowed: readonly string[] }> = {
  quotePreference: { setting: "typescript.preferences.quoteStyle", allowed: QUOTE_STYLES },
  importModuleSpecifierPreference: { setting: "typescript.preferences.importModuleSpecifier", allowed: MODULE_SPECIFIER_PREFERENCES },
  importModuleSpecifierEnding: { setting: "typescript.preferences.importModuleSpecifierEnding", allowed: MODULE_SPECIFIER_ENDINGS },
};

/** The repository's preferences (unknown or invalid values are left to TypeScript's defaults), overridden by `given`. */
export async function readPreferences(workspace: WorkspaceReader, given: EditorPreferences = {}): Promise<ts.UserPreferences> {
  const fromRepository: Record<string, unknown> = {};
  if (await workspace.exists(SETTINGS)) {
    const read = await workspace.tryReadText(SETTINGS);
    // VS Code settings are JSON with comments and trailing commas: TypeScript's own reader takes them.
    const parsed = "text" in read ? (ts.parseConfigFileTextToJson(SETTINGS, read.text).config as unknown) : undefined;
    if (parsed && typeof parsed === "object") {
      for (const [key, { setting, allowed }] of Object.entries(KEYS)) {
        const value = (parsed as Record<string, unknown>)[setting];
        if (typeof value === "string" && allowed.includes(value)) fromRepository[key] = value;
      }
    }
  }
  const preferences: Record<string, unknown> = { ...fromRepository };
  for (const key of Object.keys(KEYS) as Array<keyof EditorPreferences>) if (given[key] !== undefined) preferences[key] = given[key];
  return preferences;
}
