import { parse } from 'csv-parse/sync';
import { TABLE_MAX_COLUMNS, tableRows, type Extracted, type TextSection } from './sections';

/** Uploads of text types were checked to be UTF-8 already; a byte-order mark is dropped. */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Plain text: one section (paragraphs are found by chunking). */
export function extractPlainText(bytes: Uint8Array): Extracted {
  const text = decodeUtf8(bytes).trim();
  return { sections: text ? [{ kind: 'text', place: null, text }] : [] };
}

/** Markdown split at its headings (ATX `#` and setext underlines), each part placed at its heading. */
export function extractMarkdown(bytes: Uint8Array): Extracted {
  const sections: TextSection[] = [];
  let place: string | null = null;
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) sections.push({ kind: 'text', place, text });
    lines = [];
  };
  const all = decodeUtf8(bytes).split('\n');
  for (let i = 0; i < all.length; i++) {
    const line = all[i];
    // These patterns are anchored and their neighbours match different characters, so each is linear in the line.
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const atx = fenced ? undefined : atxHeading(line);
    const setext = !fenced && line.trim() && /^ {0,3}(=+|-+)\s*$/.test(all[i + 1] ?? '') && !/^\s*[-*+]\s/.test(line);
    if (atx !== undefined || setext) {
      flush();
      place = (atx ?? line.trim()) || null;
      if (setext) i++;
      continue;
    }
    lines.push(line);
  }
  flush();
  return { sections };
}

const isWhite = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * The text of an ATX heading (`## Title ##`: up to 3 spaces, 1 to 6 '#', white space, the title, optionally a
 * closing run of '#'), or undefined when the line is not one. A scan from both ends: the pattern it replaces,
 * /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/, backtracked cubically over a run of spaces, and a 12 KB file of `# a`,
 * spaces and `x` held the extraction worker for minutes.
 */
export function atxHeading(line: string): string | undefined {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  const hashes = i;
  while (line[i] === '#') i++;
  if (i === hashes || i - hashes > 6 || !isWhite(line[i])) return undefined;
  let end = line.length;
  while (end > i && isWhite(line[end - 1])) end--;
  while (end > i && line[end - 1] === '#') end--;
  while (end > i && isWhite(line[end - 1])) end--;
  while (i < end && isWhite(line[i])) i++;
  return line.slice(i, end);
}

/**
 * CSV rows as 'header: value' lines (the first record is the header), numbered as a spreadsheet would show them;
 * columns past Excel's last (XFD) are left out, as a spreadsheet would.
 */
export function extractCsv(bytes: Uint8Array): Extracted {
  const records = parse(decodeUtf8(bytes), { relax_column_count: true, skip_empty_lines: true, relax_quotes: true }) as string[][];
  const rows = tableRows(records.map((values, i) => ({ n: i + 1, values: values.length > TABLE_MAX_COLUMNS ? values.slice(0, TABLE_MAX_COLUMNS) : values })));
  return { sections: rows.length > 0 ? [{ kind: 'rows', sheet: null, rows }] : [] };
}
