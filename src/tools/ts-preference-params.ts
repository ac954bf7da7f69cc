/**
 * The editor preferences /move and /rename-symbol take as parameters (TypeScript's UserPreferences
 * names). Kept apart from ts-preferences.ts so that declaring the tools does not load TypeScript.
 */
import type * as TypeBoxModule from "@sinclair/typebox";

export const QUOTE_STYLES = ["auto", "double", "single"] as const;
export const MODULE_SPECIFIER_PREFERENCES = ["shortest", "project-relative", "relative", "non-relative"] as const;
export const MODULE_SPECIFIER_ENDINGS = ["auto", "minimal", "index", "js"] as const;

export interface PreferenceParams {
  quotePreference?: (typeof QUOTE_STYLES)[number];
  importModuleSpecifierPreference?: (typeof MODULE_SPECIFIER_PREFERENCES)[number];
  importModuleSpecifierEnding?: (typeof MODULE_SPECIFIER_ENDINGS)[number];
}

function oneOf(Type: typeof TypeBoxModule.Type, values: readonly string[], description: string) {
  return Type.Optional(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      { description },
    ),
  );
}

/** Schema properties; unset means "as the repository's .vscode/settings.json says, else TypeScript's default". */
export function preferenceParameters(Type: typeof TypeBoxModule.Type) {
  return {
    quotePreference: oneOf(Type, QUOTE_STYLES, "Quotes of new import specifiers (default: typescript.preferences.quoteStyle, else auto)"),
    importModuleSpecifierPreference: oneOf(
      Type,
      MODULE_SPECIFIER_PREFERENCES,
      "Style of rewritten import paths (default: typescript.preferences.importModuleSpecifier, else shortest)",
    ),
    importModuleSpecifierEnding: oneOf(
      Type,
      MODULE_SPECIFIER_ENDINGS,
      "Extension of rewritten import paths (default: typescript.preferences.importModuleSpecifierEnding, else auto)",
    ),
  };
}
