import { parse } from 'csv-parse/sync';
import { tableRows, type Extracted, type TextSection } from './sections';

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
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const atx = fenced ? null : /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const setext = !fenced && line.trim() && /^ {0,3}(=+|-+)\s*$/.test(all[i + 1] ?? '') && !/^\s*[-*+]\s/.test(line);
    if (atx || setext) {
      flush();
      place = (atx ? atx[1] : line.trim()) || null;
      if (setext) i++;
      continue;
    }
    lines.push(line);
  }
  flush();
  return { sections };
}

/** CSV rows as 'header: value' lines (the first record is the header), numbered as a spreadsheet would show them. */
export function extractCsv(bytes: Uint8Array): Extracted {
  const records = parse(decodeUtf8(bytes), { relax_column_count: true, skip_empty_lines: true, relax_quotes: true }) as string[][];
  const rows = tableRows(records.map((cells, i) => ({ n: i + 1, cells })));
  return { sections: rows.length > 0 ? [{ kind: 'rows', sheet: null, rows }] : [] };
}
