// A message's markdown as one line of plain text, for the places that quote a reply in a line or two (search
// results, the feedback inbox), where markdown syntax and markers would show as raw characters.

/** A marker's attribute value, unescaped as shared/markers.ts escaped it. */
const markerAttr = (attrs: string, name: string) => (new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? '').replace(/&quot;/g, '"');

/** An image or document marker written out ("[Image: a chart]", "[Document: report.pdf]"), as the copy of a message does. */
function writtenOutMarker(kind: string, attrs: string): string {
  if (kind === 'image') {
    const alt = markerAttr(attrs, 'alt');
    return alt ? `[Image: ${alt}]` : '[Image]';
  }
  if (kind === 'document') return `[Document: ${markerAttr(attrs, 'name')}]`;
  return ' ';
}

/** Markdown to one line of text: markers, fences, heading/quote/list/emphasis marks and escapes out, whitespace collapsed. */
export function oneLineText(markdown: string): string {
  return markdown
    .replace(/^\s*::(image|document)\{([^}\n]*)\}\s*$/gm, (_m, kind: string, attrs: string) => writtenOutMarker(kind, attrs))
    .replace(/^\s*:{2,}[\w-]*(\{[^}\n]*\})?\s*$/gm, ' ')
    .replace(/^\s*```.*$/gm, ' ')
    .replace(/^\s*(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The start of `text`, at most `length` characters: cut after a word where one ends near the limit, with '…'. */
export function textStart(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.75 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
