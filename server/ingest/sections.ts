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

/** A table's rows as 'header: value' lines (empty cells left out), the first row being the header. */
export function tableRows(table: Array<{ n: number; cells: string[] }>): Array<{ n: number; line: string }> {
  const [header, ...rows] = table;
  if (!header) return [];
  const names = header.cells.map((name, i) => name.trim() || `column ${i + 1}`);
  const out: Array<{ n: number; line: string }> = [];
  for (const row of rows) {
    const parts: string[] = [];
    row.cells.forEach((value, i) => {
      const v = value.trim();
      if (v) parts.push(`${names[i] ?? `column ${i + 1}`}: ${v.replace(/\s+/g, ' ')}`);
    });
    if (parts.length > 0) out.push({ n: row.n, line: parts.join('; ') });
  }
  return out;
}
