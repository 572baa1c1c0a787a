import type { RowsSection, Section, TextSection } from './sections';

/** One passage as stored and searched: its text and where in the document it is. */
export interface Chunk {
  content: string;
  place: string | null;
}

export interface ChunkOptions {
  /** Target length of a chunk in characters (a chunk of running text may exceed it by the overlap). */
  size: number;
  /** Characters of the previous chunk repeated at the start of the next, so a sentence cut between them is whole in one. */
  overlap: number;
}

export const CHUNK_DEFAULTS: ChunkOptions = { size: 1000, overlap: 150 };

/**
 * Structure first: a chunk never spans two sections (pages, slides, headings, sheets), so each keeps one place.
 * Within a section, running text is packed paragraph by paragraph up to `size` (a longer paragraph is cut at
 * sentence or word boundaries) with `overlap` carried over; table rows are packed whole, without overlap (every
 * row carries its headers, so every chunk does), and the place names the rows it holds.
 */
export function chunkSections(sections: readonly Section[], options: ChunkOptions = CHUNK_DEFAULTS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    if (section.kind === 'text') chunks.push(...chunkText(section, options));
    else chunks.push(...chunkRows(section, options));
  }
  return chunks;
}

function chunkText(section: TextSection, { size, overlap }: ChunkOptions): Chunk[] {
  const pieces = section.text
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => (p.length > size ? cutLong(p, size - overlap) : [p]));
  const out: Chunk[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + 2 + piece.length > size) {
      out.push({ content: current, place: section.place });
      current = tail(current, overlap);
    }
    current = current ? `${current}\n\n${piece}` : piece;
  }
  if (current.trim()) out.push({ content: current, place: section.place });
  return out;
}

/** A paragraph longer than `max` in pieces of at most `max`, cut after a sentence where one ends late enough, else at a space. */
function cutLong(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('\n'));
    if (cut < max * 0.5) cut = window.lastIndexOf(' ');
    if (cut < max * 0.5) cut = max;
    else cut += 1;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** The last `overlap` characters of a chunk, starting at a word. */
function tail(text: string, overlap: number): string {
  if (overlap <= 0) return '';
  if (text.length <= overlap) return text;
  const start = text.length - overlap;
  const space = text.indexOf(' ', start);
  return (space === -1 || space - start > overlap / 2 ? text.slice(start) : text.slice(space + 1)).trim();
}

function chunkRows(section: RowsSection, { size }: ChunkOptions): Chunk[] {
  const out: Chunk[] = [];
  let lines: string[] = [];
  let length = 0;
  let first = 0;
  let last = 0;
  const flush = () => {
    if (lines.length === 0) return;
    const rows = first === last ? `row ${first}` : `rows ${first}-${last}`;
    out.push({ content: lines.join('\n'), place: section.sheet ? `${section.sheet} ${rows}` : rows });
    lines = [];
    length = 0;
  };
  for (const row of section.rows) {
    // A row longer than a chunk stays whole: cutting it would separate values from their headers.
    if (lines.length > 0 && length + 1 + row.line.length > size) flush();
    if (lines.length === 0) first = row.n;
    lines.push(row.line);
    length += row.line.length + 1;
    last = row.n;
  }
  flush();
  return out;
}
