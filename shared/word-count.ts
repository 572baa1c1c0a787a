// Counting words as the administration spec does; the policy schema, its editor and its tests count alike.

/** Words as the spec counts them: the text split on whitespace, empty pieces dropped. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}
