/** Counted words in labels and replies, for every layer: "1 file", "2 files". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${pluralWord(count, singular, pluralForm)}`;
}

/** The word alone, for a count written elsewhere or not at all: "Example" / "Examples". */
export function pluralWord(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}
