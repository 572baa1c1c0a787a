// What an extractor returns: the document's text in the pieces its own structure gives (pages, slides, headings,
// sheet rows), each with a place a citation can name. Chunking (chunk.ts) splits these further, never across them.

/** Running text: a page, a slide, the part of a document under one heading, or a whole plain text. */
export interface TextSection {
  kind: 'text';
  /** 'page 3', 'slide 2', a heading; null when the document has no structure to name (plain text). */
  place: string | null;
  /** Paragraphs are separated by blank lines. */
  text: string;
}

/** Rows of a table (a sheet, a CSV): each line already carries its column headers ('header: value'). */
export interface RowsSection {
  kind: 'rows';
  /** The sheet's name; null for a CSV (its place is then 'rows 2-40'). */
  sheet: string | null;
  /** Spreadsheet row numbers (the header is row 1 of a CSV) with the row as text. */
  rows: Array<{ n: number; line: string }>;
}

export type Section = TextSection | RowsSection;

/** What extraction found, before chunking. */
export interface Extracted {
  sections: Section[];
  /** Something the reader should know (a PDF without a text layer); shown with the document. */
  note?: string;
}

export const SCANNED_PDF_NOTE = 'This PDF has no text layer (it may be a scanned document), so it cannot be searched.';
export const AUDIO_NOT_TRANSCRIBED_NOTE = 'Audio is kept but not transcribed: no transcription model is configured.';

/**
 * A table's row as read: its number and the values that hold something, in column order, with their 0-based
 * columns (left out when the values are columns 0, 1, 2..., as in a CSV record). Two flat arrays, not a pair per
 * cell: a row of 500,000 cells is a hostile CSV's whole point.
 */
export interface TableRow {
  n: number;
  values: readonly string[];
  columns?: readonly number[];
}

/**
 * Columns read of a table: Excel's own limit (A to XFD). A cell beyond it is not one Excel could show, and a CSV
 * line of a million commas would otherwise become a million 'column N' labels.
 */
export const TABLE_MAX_COLUMNS = 16_384;

const SPACE = /\s/;

/** A table's rows as 'header: value' lines (empty cells left out), the first row being the header. */
export function tableRows(table: readonly TableRow[]): Array<{ n: number; line: string }> {
  const [header, ...rows] = table;
  if (!header) return [];
  // Column -> its header, or 'column N' where the header is empty, made once per column rather than once per cell
  // (an array: columns stop at TABLE_MAX_COLUMNS).
  const names: string[] = [];
  header.values.forEach((name, k) => {
    const column = header.columns?.[k] ?? k;
    names[column] = name.trim() || `column ${column + 1}`;
  });
  const out: Array<{ n: number; line: string }> = [];
  for (const row of rows) {
    const parts: string[] = [];
    for (let k = 0; k < row.values.length; k++) {
      const v = row.values[k].trim();
      if (!v) continue;
      const column = row.columns?.[k] ?? k;
      const name = (names[column] ??= `column ${column + 1}`);
      parts.push(`${name}: ${SPACE.test(v) ? v.replace(/\s+/g, ' ') : v}`);
    }
    if (parts.length > 0) out.push({ n: row.n, line: parts.join('; ') });
  }
  return out;
}
