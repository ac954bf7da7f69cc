/**
 * The languages of the ast-grep CLI 0.51.1 (all 29 it builds in), with the file extensions it
 * assigns to each and the names its --lang accepts. Both tables were checked against the binary:
 * extensions are case-sensitive and matched on the last dot only (`x.sh.in` is nothing), --lang
 * names case-insensitively. HTML hosts injected code: `<script>` is JavaScript, `<style>` CSS, and a
 * `lang` attribute names any other language (`<script lang="ts">`, even "python"); no other
 * language hosts another in 0.51.1 (Markdown fences are not searched).
 */
import { Lang } from "@ast-grep/napi";

export const AST_LANGS = [
  "Bash",
  "C",
  "Cpp",
  "CSharp",
  "Css",
  "Dart",
  "Elixir",
  "Go",
  "Haskell",
  "Hcl",
  "Html",
  "Java",
  "JavaScript",
  "Json",
  "Kotlin",
  "Lua",
  "Markdown",
  "Nix",
  "Php",
  "Python",
  "Ruby",
  "Rust",
  "Scala",
  "Solidity",
  "Swift",
  "Tsx",
  "TypeScript",
  "Yaml",
  "Zig",
] as const;

/** A language by the name the CLI reports in its JSON output (`"language": "TypeScript"`). */
export type AstLang = (typeof AST_LANGS)[number];

const EXTENSIONS: Readonly<Record<AstLang, readonly string[]>> = {
  Bash: ["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"],
  C: ["c", "h"],
  Cpp: ["cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino"],
  CSharp: ["cs"],
  Css: ["css", "scss"],
  Dart: ["dart"],
  Elixir: ["ex", "exs"],
  Go: ["go"],
  Haskell: ["hs"],
  Hcl: ["hcl", "tf", "tfvars"],
  Html: ["html", "htm", "xhtml"],
  Java: ["java"],
  JavaScript: ["js", "cjs", "mjs", "jsx"],
  Json: ["json"],
  Kotlin: ["kt", "ktm", "kts"],
  Lua: ["lua"],
  Markdown: ["md", "markdown"],
  Nix: ["nix"],
  Php: ["php"],
  Python: ["py", "py3", "pyi", "bzl"],
  Ruby: ["rb", "rbw", "gemspec"],
  Rust: ["rs"],
  Scala: ["scala", "sc", "sbt"],
  Solidity: ["sol"],
  Swift: ["swift"],
  Tsx: ["tsx"],
  TypeScript: ["ts", "cts", "mts"],
  Yaml: ["yml", "yaml"],
  Zig: ["zig"],
};

/** --lang names besides the language's own name (all compared lower-cased). */
const ALIASES: Readonly<Partial<Record<AstLang, readonly string[]>>> = {
  Cpp: ["cc", "c++", "cxx"],
  CSharp: ["cs"],
  Elixir: ["ex"],
  Go: ["golang"],
  Haskell: ["hs"],
  JavaScript: ["js", "jsx"],
  Kotlin: ["kt"],
  Markdown: ["md"],
  Python: ["py"],
  Ruby: ["rb"],
  Rust: ["rs"],
  Solidity: ["sol"],
  TypeScript: ["ts"],
  Yaml: ["yml"],
};

const BY_EXTENSION = new Map<string, AstLang>(AST_LANGS.flatMap((lang) => EXTENSIONS[lang].map((ext) => [ext, lang] as const)));

const BY_NAME = new Map<string, AstLang>(
  AST_LANGS.flatMap((lang) => [lang.toLowerCase(), ...(ALIASES[lang] ?? [])].map((name) => [name, lang] as const)),
);

/** The language the CLI gives a file by its extension, or undefined when it has none for it. */
export function langForPath(path: string): AstLang | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return undefined; // `.env`, `.js`: the CLI reads no language from a hidden file's name
  return BY_EXTENSION.get(base.slice(dot + 1));
}

/** The language named by a `lang` parameter (case-insensitive), or undefined when there is none. */
export function langFromName(name: string): AstLang | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

/** The extension a file must have for the CLI to read it as `lang`. */
export function extensionOf(lang: AstLang): string {
  return EXTENSIONS[lang][0]!;
}

/** True when the CLI, searching for `lang`, also searches files of `host` (language injection). */
export function hostsInjected(host: AstLang, lang: AstLang): boolean {
  return host === "Html" && lang !== "Html";
}

/** One line per language for /help: name and extensions. */
export function languageTable(): string[] {
  return AST_LANGS.map((lang) => `${lang}: ${EXTENSIONS[lang].map((ext) => `.${ext}`).join(" ")}`);
}

/** The in-process parser (@ast-grep/napi's built-in grammars) for the prefilter, where there is one. */
export function napiLang(lang: AstLang): Lang | undefined {
  switch (lang) {
    case "TypeScript":
      return Lang.TypeScript;
    case "Tsx":
      return Lang.Tsx;
    case "JavaScript":
      return Lang.JavaScript;
    case "Html":
      return Lang.Html;
    case "Css":
      return Lang.Css;
    default:
      return undefined;
  }
}
