import { strFromU8 } from 'fflate';
import { TABLE_MAX_COLUMNS, tableRows, type Extracted, type RowsSection, type TableRow, type TextSection } from './sections';
import { attribute, elements, elementTexts, startTags } from './xml-text';
import { MAX_UNPACKED_BYTES, MAX_ZIP_ENTRIES, unzipCapped } from './zip-directory';

/**
 * PowerPoint and Excel files are zips of XML parts: only the parts holding text are unpacked. Uploads were checked
 * for zip bombs by their declared sizes already; the limits here are a second line: a part declaring more than this
 * is not read (as if absent), and no part unpacks to more than it declares (unzipCapped: a declared size can lie).
 */
const PART_MAX_BYTES = 200 * 1024 * 1024;

function unzipParts(bytes: Uint8Array, wanted: (name: string) => boolean): Record<string, string> {
  const files = unzipCapped(bytes, (e) => wanted(e.name) && e.declaredSize <= PART_MAX_BYTES, {
    maxEntries: MAX_ZIP_ENTRIES,
    maxTotalBytes: MAX_UNPACKED_BYTES,
  });
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

/** Relationship id -> target path (resolved against `dir`), from a .rels part. */
function relationships(xml: string | undefined, dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const tag of startTags(xml ?? '', 'Relationship')) {
    const id = attribute(tag, 'Id');
    const target = attribute(tag, 'Target');
    if (id && target) out.set(id, target.startsWith('/') ? target.slice(1) : normalise(`${dir}/${target}`));
  }
  return out;
}

/** 'ppt/slides/../media/x' -> 'ppt/media/x'. */
function normalise(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '..') out.pop();
    else if (part && part !== '.') out.push(part);
  }
  return out.join('/');
}

/** Slides in the presentation's order (its slide list, not the part names), each slide's paragraphs as lines. */
export function extractPptx(bytes: Uint8Array): Extracted {
  const parts = unzipParts(bytes, (n) => n === 'ppt/presentation.xml' || n === 'ppt/_rels/presentation.xml.rels' || /^ppt\/slides\/slide\d+\.xml$/.test(n));
  const rels = relationships(parts['ppt/_rels/presentation.xml.rels'], 'ppt');
  // Each slide once, however often the list names it: a slide part read again for every mention was a way to make
  // a small file take hours.
  const listed = startTags(parts['ppt/presentation.xml'] ?? '', 'p:sldId')
    .map((tag) => rels.get(attribute(tag, 'r:id') ?? ''))
    .filter((p): p is string => !!p && parts[p] !== undefined);
  const ordered = [...new Set(listed)];
  // A presentation part without a slide list (rare writers): the slide parts by their number.
  const slides = ordered.length > 0 ? ordered : Object.keys(parts).filter((n) => n.startsWith('ppt/slides/')).sort(byNumber);
  const sections: TextSection[] = [];
  slides.forEach((name, i) => {
    const paragraphs = elements(parts[name], 'a:p')
      .map((p) => elementTexts(p.body, 'a:t').join('').trim())
      .filter(Boolean);
    if (paragraphs.length > 0) sections.push({ kind: 'text', place: `slide ${i + 1}`, text: paragraphs.join('\n') });
  });
  return { sections };
}

const byNumber = (a: string, b: string) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]);

/** 'BC12' -> 54 (0-based column index). */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n - 1;
}

/** Each sheet's rows in the workbook's order, the first non-empty row being the header of the others. */
export function extractXlsx(bytes: Uint8Array): Extracted {
  const parts = unzipParts(
    bytes,
    (n) => n === 'xl/workbook.xml' || n === 'xl/_rels/workbook.xml.rels' || n === 'xl/sharedStrings.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(n),
  );
  // A shared string may be rich text (several runs): its text is all its t elements joined.
  const shared = elements(parts['xl/sharedStrings.xml'] ?? '', 'si').map((si) => elementTexts(si.body, 't').join(''));
  const rels = relationships(parts['xl/_rels/workbook.xml.rels'], 'xl');
  const sheets = startTags(parts['xl/workbook.xml'] ?? '', 'sheet').map((tag) => ({
    name: attribute(tag, 'name') ?? 'Sheet',
    part: rels.get(attribute(tag, 'r:id') ?? '') ?? '',
  }));
  const sections: RowsSection[] = [];
  // Each sheet part once, as for slides.
  const read = new Set<string>();
  for (const sheet of sheets) {
    const xml = parts[sheet.part];
    if (xml === undefined || read.has(sheet.part)) continue;
    read.add(sheet.part);
    const rows = tableRows(sheetTable(xml, shared));
    if (rows.length > 0) sections.push({ kind: 'rows', sheet: sheet.name, rows });
  }
  return { sections };
}

/**
 * A worksheet's non-empty rows: shared strings, inline strings, formula results, numbers and booleans as text. Only
 * the cells that hold something are kept, with their columns, so a row of one cell in column XFD costs one cell.
 */
function sheetTable(xml: string, shared: string[]): TableRow[] {
  const table: TableRow[] = [];
  for (const row of elements(xml, 'row')) {
    const n = Number(attribute(row.tag, 'r') ?? table.length + 1);
    const cells = new Map<number, string>();
    let inOrder = true;
    let last = -1;
    let next = 0;
    for (const cell of elements(row.body, 'c')) {
      const ref = attribute(cell.tag, 'r');
      const index = ref ? columnIndex(ref) : next;
      next = index + 1;
      if (index < 0 || index >= TABLE_MAX_COLUMNS) continue;
      const type = attribute(cell.tag, 't');
      let value: string;
      if (type === 'inlineStr') value = elementTexts(cell.body, 't').join('');
      else {
        const v = elementTexts(cell.body, 'v')[0] ?? '';
        if (type === 's') value = shared[Number(v)] ?? '';
        else if (type === 'b') value = v === '1' ? 'TRUE' : 'FALSE';
        else value = v;
      }
      if (!value) continue;
      if (index <= last) inOrder = false;
      last = index;
      // A column named twice (not as Excel writes it): the last value wins.
      cells.set(index, value);
    }
    if (cells.size === 0) continue;
    const columns = inOrder ? [...cells.keys()] : [...cells.keys()].sort((a, b) => a - b);
    table.push({ n, values: columns.map((c) => cells.get(c) ?? ''), columns });
  }
  return table;
}
