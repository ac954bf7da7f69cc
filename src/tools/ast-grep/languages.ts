/**
 * Languages ast_edit can rewrite: the ones @ast-grep/napi ships built in (its `Lang` enum), with
 * the file extensions ast-grep CLI 0.51.1 assigns to each (checked against the CLI: extensions are
 * case-sensitive, `.jsx` is JavaScript, `.scss` is CSS, `.xhtml` is HTML).
 */
import { Lang } from "@ast-grep/napi";

export type AstLang = Lang;

const EXTENSIONS: ReadonlyArray<readonly [Lang, readonly string[]]> = [
  [Lang.TypeScript, ["ts", "cts", "mts"]],
  [Lang.Tsx, ["tsx"]],
  [Lang.JavaScript, ["js", "cjs", "mjs", "jsx"]],
  [Lang.Html, ["html", "htm", "xhtml"]],
  [Lang.Css, ["css", "scss"]],
];

const BY_EXTENSION = new Map<string, Lang>(EXTENSIONS.flatMap(([lang, exts]) => exts.map((ext) => [ext, lang] as const)));

/** Names accepted for the `lang` parameter (case-insensitive), as the CLI's --lang accepts them. */
const ALIASES = new Map<string, Lang>([
  ["typescript", Lang.TypeScript],
  ["ts", Lang.TypeScript],
  ["tsx", Lang.Tsx],
  ["javascript", Lang.JavaScript],
  ["js", Lang.JavaScript],
  ["jsx", Lang.JavaScript],
  ["html", Lang.Html],
  ["css", Lang.Css],
]);

export const LANG_NAMES: readonly string[] = [...ALIASES.keys()];

/** The language of a file by its extension, or undefined when ast_edit has no parser for it. */
export function langForPath(path: string): Lang | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return BY_EXTENSION.get(base.slice(dot + 1));
}

/** The language named by a `lang` parameter, or undefined when it is not one of LANG_NAMES. */
export function langFromName(name: string): Lang | undefined {
  return ALIASES.get(name.trim().toLowerCase());
}
