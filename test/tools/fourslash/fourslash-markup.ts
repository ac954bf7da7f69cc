/**
 * Reading TypeScript's fourslash tests and their rename baselines (microsoft/TypeScript, Apache-2.0)
 * as data: a test's files without the markup, and from a `*.baseline.jsonc` of
 * `verify.baselineRename` every rename it records — where it starts, with which options, and the
 * text every file has afterwards.
 */

/** A fourslash test's files (workspace paths, markup removed) and its `// @option: value` lines. */
export function fourslashFiles(source: string, test: string): Record<string, string> {
  return parseFourslash(source, test).files;
}

export interface Position {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
}

/**
 * A fourslash test: its files without markup, where its markers (`/*name*\/`) are, and its ranges
 * (`[| |]`) numbered as `test.ranges()` numbers them (file order, then position, an enclosing range
 * before the ones inside it).
 */
export function parseFourslash(
  source: string,
  test: string,
): { files: Record<string, string>; markers: Map<string, Position>; ranges: Position[] } {
  const byFile = new Map<string, string[]>();
  const options: Record<string, unknown> = {};
  // A test without `// @Filename` has one file, named as the test.
  let current = source;
  for (const line of test.split(/\r?\n/)) {
    const directive = /^\/\/\s*@(\w+)\s*:\s*(.*?)\s*$/.exec(line);
    if (directive && directive[1]!.toLowerCase() === "filename") {
      // Relative names are relative to the test's directory, as fourslash places them.
      const name = directive[2]!;
      current = name.startsWith("/") ? name.slice(1) : `${source.slice(0, source.lastIndexOf("/") + 1)}${name}`;
      byFile.set(current, []);
    } else if (directive) {
      const value = directive[2]!;
      // Fourslash takes list options (`// @lib: es5,dom`) comma-separated.
      if (directive[1]!.toLowerCase() === "lib") options.lib = value.split(/\s*,\s*/);
      else options[directive[1]!] = value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value;
    } else if (line.startsWith("////")) {
      if (!byFile.has(current)) byFile.set(current, []);
      byFile.get(current)!.push(line.slice(4));
    }
  }
  const files: Record<string, string> = {};
  const markers = new Map<string, Position>();
  const ranges: Position[] = [];
  for (const [file, lines] of byFile) {
    const parsed = parseMarkup(lines.join("\n"));
    files[file] = parsed.text;
    const at = (offset: number): Position => {
      const before = parsed.text.slice(0, offset).split("\n");
      return { file, line: before.length, column: before.at(-1)!.length + 1 };
    };
    for (const [name, offset] of parsed.markers) markers.set(name, at(offset));
    ranges.push(...parsed.ranges.sort((a, b) => a.start - b.start || b.end - a.end).map((range) => at(range.start)));
  }
  // The test's compiler options (`// @allowJs: true`) as the project's tsconfig.json.
  if (Object.keys(options).length > 0 && files["tsconfig.json"] === undefined) {
    files["tsconfig.json"] = JSON.stringify({ compilerOptions: options });
  }
  return { files, markers, ranges };
}

/** Text without fourslash's ranges `[| |]`, range data `{| |}` and markers `/*name*\/`, and where they were. */
function parseMarkup(markup: string): { text: string; markers: Map<string, number>; ranges: Array<{ start: number; end: number }> } {
  let text = "";
  const markers = new Map<string, number>();
  const ranges: Array<{ start: number; end: number }> = [];
  const open: number[] = [];
  for (let i = 0; i < markup.length;) {
    const marker = /^\/\*([\w$]*)\*\//.exec(markup.slice(i, i + 100));
    if (markup.startsWith("[|", i)) {
      open.push(text.length);
      i += 2;
    } else if (markup.startsWith("|]", i)) {
      ranges.push({ start: open.pop()!, end: text.length });
      i += 2;
    } else if (markup.startsWith("{|", i)) {
      i = markup.indexOf("|}", i) + 2;
    } else if (marker) {
      markers.set(marker[1]!, text.length);
      i += marker[0].length;
    } else {
      text += markup[i++];
    }
  }
  return { text, markers, ranges };
}

export interface BaselineRename {
  /** Where the rename starts: workspace path, 1-based line and column. */
  file: string;
  line: number;
  column: number;
  /** The new name: the name at the start, followed by "RENAME" (as the baseline writes it). */
  newName: string;
  /** The section's `// @name: value` lines (findInComments, findInStrings, providePrefixAndSuffixTextForRename …). */
  options: Record<string, boolean>;
  /** Every file's text afterwards (files not in the baseline are unchanged). */
  after: Record<string, string>;
}

interface Location {
  start: number;
  end: number;
  name: string;
  prefix: string;
  suffix: string;
}

/**
 * The renames a `findRenameLocations` baseline records, against the test's files. A baseline shows
 * each file with every location written as `[|nameRENAME|]`, the start as `/*RENAME*\/`, prefix and
 * suffix text between `/*START PREFIX*\/` and the location, or the location and `/*END SUFFIX*\/`,
 * and `<| |>` around context; long stretches without locations are left out
 * (`// --- (line: N) skipped ---`), so each shown stretch is found in the original by its text.
 */
export function baselineRenames(baseline: string, files: Record<string, string>): BaselineRename[] {
  // Other commands' sections (findAllReferences …) may share the file: each section ends where another begins.
  const sections = baseline
    .split("// === findRenameLocations ===")
    .slice(1)
    .map((section) => section.split(/^\/\/ === \w/m)[0]!);
  return sections.map((section) => {
    const options: Record<string, boolean> = {};
    const byFile = new Map<string, string[][]>();
    let file: string | undefined;
    for (const line of section.split("\n")) {
      const header = /^\/\/ === \/(.+) ===$/.exec(line);
      const option = /^\/\/ @(\w+): (true|false)$/.exec(line);
      if (header) {
        file = header[1]!;
        byFile.set(file, [[]]);
      } else if (option && file === undefined) {
        options[option[1]!] = option[2] === "true";
      } else if (file !== undefined && /^\/\/ --- \(line: \d+\) skipped ---$/.test(line)) {
        byFile.get(file)!.push([]);
      } else if (file !== undefined && (line === "//" || line.startsWith("// "))) {
        byFile.get(file)!.at(-1)!.push(line.slice(3));
      }
    }
    let start: { file: string; offset: number } | undefined;
    let newName: string | undefined;
    const after: Record<string, string> = {};
    for (const [name, stretches] of byFile) {
      const original = files[name];
      if (original === undefined) throw new Error(`The baseline names ${name}, which the test does not have`);
      const locations: Location[] = [];
      let from = 0;
      for (const stretch of stretches.filter((lines) => lines.length > 0)) {
        const parsed = parseStretch(stretch.join("\n"));
        const found = findStretch(original, parsed.original, from);
        if (found === undefined) throw new Error(`${name}: the baseline shows text the test does not have:\n${parsed.original}`);
        from = found.end;
        for (const location of parsed.locations) {
          locations.push({ ...location, start: found.map(location.start), end: found.map(location.end) });
        }
        if (parsed.start !== undefined) {
          start = { file: name, offset: found.map(parsed.start) };
          newName = `${parsed.startName ?? parsed.locations[0]?.name ?? ""}RENAME`;
        }
      }
      after[name] = locations
        .sort((a, b) => b.start - a.start)
        .reduce(
          (text, location) => `${text.slice(0, location.start)}${location.prefix}\0${location.suffix}${text.slice(location.end)}`,
          original,
        );
    }
    if (start === undefined || newName === undefined) throw new Error(`A baseline section without /*RENAME*/:\n${section}`);
    for (const name of Object.keys(after)) after[name] = after[name]!.replaceAll("\0", newName);
    const before = files[start.file]!.slice(0, start.offset).split("\n");
    return { file: start.file, line: before.length, column: before.at(-1)!.length + 1, newName, options, after };
  });
}

/**
 * Where a shown stretch is in the original, from `from` on. Baselines drop trailing spaces, and a
 * stored test may be an older version indented differently, so each line may have spaces around it. `map` turns an offset in the stretch into one in the original.
 */
function findStretch(original: string, stretch: string, from: number): { end: number; map: (offset: number) => number } | undefined {
  const lines = stretch.split("\n");
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(lines.map((line) => `[ \\t]*(${escape(line.trim())})[ \\t]*`).join("\\n"), "dg");
  pattern.lastIndex = from;
  const match = pattern.exec(original);
  if (!match) return undefined;
  const lineStarts = match.indices!.slice(1).map((span) => span![0]);
  const stretchStarts = lines.map((_, i) => lines.slice(0, i).reduce((sum, line) => sum + line.length + 1, 0));
  const map = (offset: number) => {
    let i = stretchStarts.length - 1;
    while (stretchStarts[i]! > offset) i--;
    const indent = lines[i]!.length - lines[i]!.trimStart().length;
    return lineStarts[i]! + offset - stretchStarts[i]! - indent;
  };
  return { end: match.index + match[0].length, map };
}

/** One shown stretch of a file: its original text, its locations and the start, by offset in it. */
function parseStretch(text: string): { original: string; locations: Location[]; start?: number; startName?: string } {
  let original = "";
  const locations: Location[] = [];
  let start: number | undefined;
  let startName: string | undefined;
  let prefix: string | undefined;
  let lastEnd = -1;
  for (let i = 0; i < text.length;) {
    const rest = text.slice(i);
    if (rest.startsWith("<|") || rest.startsWith("|>")) {
      i += 2;
    } else if (rest.startsWith("/*RENAME*/")) {
      start = original.length;
      i += "/*RENAME*/".length;
      if (text.startsWith("[|", i)) startName = /^\[\|([\s\S]*?)RENAME\|\]/.exec(text.slice(i))?.[1];
    } else if (rest.startsWith("/*START PREFIX*/")) {
      prefix = "";
      i += "/*START PREFIX*/".length;
    } else if (rest.startsWith("/*END SUFFIX*/")) {
      const last = locations.at(-1)!;
      last.suffix = original.slice(lastEnd);
      original = original.slice(0, lastEnd);
      i += "/*END SUFFIX*/".length;
    } else if (rest.startsWith("[|")) {
      const close = text.indexOf("|]", i);
      const shown = text.slice(i + 2, close);
      if (!shown.endsWith("RENAME")) throw new Error(`A location without RENAME: ${shown}`);
      const name = shown.slice(0, -"RENAME".length);
      const at = original.length;
      if (start === at && startName === undefined) startName = name;
      locations.push({ start: at, end: at + name.length, name, prefix: prefix ?? "", suffix: "" });
      prefix = undefined;
      original += name;
      lastEnd = original.length;
      i = close + 2;
    } else if (prefix !== undefined) {
      prefix += text[i++];
    } else {
      original += text[i++];
    }
  }
  return { original, locations, start, startName };
}
