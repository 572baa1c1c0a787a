import { strToU8, zipSync } from 'fflate';
import type { ExtractedExtension } from '../../server/services/documents/ingest/extract';

// Files of about `size` bytes built to hit what made an extractor super-linear: a regular expression that
// backtracks over a long run (`# a` + spaces + `x` took two minutes at 12 KB in the Markdown heading pattern),
// a lazy `[\s\S]*?` scan started at every one of many unclosed tags, a part read again for every reference to it,
// or a cell reference far to the right. Shared by the adversarial unit test and by anyone timing the extractors.

export interface AdversarialInput {
  name: string;
  extension: ExtractedExtension;
  build(size: number): Uint8Array;
}

const text = (s: string) => Buffer.from(s, 'utf8');
/** `unit` repeated until the result is about `size` characters. */
const fill = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

const zip = (parts: Record<string, string>) => zipSync(Object.fromEntries(Object.entries(parts).map(([n, t]) => [n, strToU8(t)])), { level: 6 });

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function xlsx(parts: { workbook?: string; rels?: string; shared?: string; sheet?: string }): Uint8Array {
  return zip({
    'xl/workbook.xml': parts.workbook ?? `<workbook xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      parts.rels ?? '<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/sharedStrings.xml': parts.shared ?? '<sst><si><t>head</t></si><si><t>value</t></si></sst>',
    'xl/worksheets/sheet1.xml':
      parts.sheet ?? '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row></sheetData></worksheet>',
  });
}

function pptx(parts: { presentation?: string; rels?: string; slide?: string }): Uint8Array {
  return zip({
    'ppt/presentation.xml': parts.presentation ?? `<p:presentation xmlns:r="${REL}"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels':
      parts.rels ?? '<Relationships><Relationship Id="rId1" Type="slide" Target="slides/slide1.xml"/></Relationships>',
    'ppt/slides/slide1.xml': parts.slide ?? '<p:sld><a:p><a:r><a:t>Hello</a:t></a:r></a:p></p:sld>',
  });
}

/** A Word document of the given body XML. */
function docx(body: string): Uint8Array {
  return zip({
    '[Content_Types].xml':
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  });
}

const wp = (t: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;

/** A sheet whose every row names one cell: a large repeat count makes many rows. */
const rowsOf = (count: number, row: (r: number) => string) =>
  `<worksheet><sheetData>${Array.from({ length: count }, (_, r) => row(r + 1)).join('')}</sheetData></worksheet>`;

export const ADVERSARIAL_INPUTS: AdversarialInput[] = [
  // Markdown: the ATX heading pattern /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/ backtracked cubically on a long run of spaces.
  { name: 'markdown: "# a", a long run of spaces, "x"', extension: '.md', build: (n) => text(`# a${' '.repeat(n)}x`) },
  { name: 'markdown: a heading closed by many " #"', extension: '.md', build: (n) => text(`# a${fill(' #', n)} x`) },
  { name: 'markdown: a setext underline ending in text', extension: '.md', build: (n) => text(`Title\n${'='.repeat(n)} x\n`) },
  { name: 'markdown: a line of spaces before a fence', extension: '.md', build: (n) => text(`${' '.repeat(n)}x\n\`\`\`\ncode\n`) },
  { name: 'markdown: many short headings', extension: '.md', build: (n) => text(fill('# h #\ntext\n', n)) },
  // Plain text and chunking: a paragraph break pattern over long runs, a paragraph with no place to cut.
  { name: 'text: a newline and a long run of spaces and tabs', extension: '.txt', build: (n) => text(`a\n${fill(' \t', n)}x`) },
  { name: 'text: one word with no space or sentence end', extension: '.txt', build: (n) => text('w'.repeat(n)) },
  { name: 'text: many newline-space pairs', extension: '.txt', build: (n) => text(fill('x\n \n', n)) },
  // CSV (csv-parse with relaxed quotes and column counts).
  { name: 'csv: nothing but quotes', extension: '.csv', build: (n) => text('"'.repeat(n)) },
  { name: 'csv: one row of very many columns', extension: '.csv', build: (n) => text(`h\n${fill('a,', n)}\n`) },
  { name: 'csv: many rows of very many columns', extension: '.csv', build: (n) => text(`h\n${fill(`${'a,'.repeat(16_383)}a\n`, n)}`) },
  { name: 'csv: a quoted field of escaped quotes', extension: '.csv', build: (n) => text(`h\n"${fill('""', n)}"\n`) },
  { name: 'csv: a long run of spaces in a field', extension: '.csv', build: (n) => text(`h,i\na${' '.repeat(n)}b,c\n`) },
  // DOCX (mammoth's HTML, split at its headings; entities and markup in the text).
  { name: 'docx: a heading of a long run of spaces', extension: '.docx', build: (n) => docx(wp(`a${' '.repeat(n)}x`, 'Heading1')) },
  { name: 'docx: text of "<" and "&"', extension: '.docx', build: (n) => docx(wp(fill('&lt;&amp;', n))) },
  // XLSX: every lazy scan started at each of many unclosed tags, parts read once per reference, cells far right.
  { name: 'xlsx: shared strings of unclosed <si>', extension: '.xlsx', build: (n) => xlsx({ shared: `<sst>${fill('<si>', n)}</sst>` }) },
  { name: 'xlsx: a shared string of unclosed <t>', extension: '.xlsx', build: (n) => xlsx({ shared: `<sst><si>${fill('<t>', n)}</si></sst>` }) },
  { name: 'xlsx: a sheet of unclosed <row>', extension: '.xlsx', build: (n) => xlsx({ sheet: `<worksheet><sheetData>${fill('<row>', n)}` }) },
  { name: 'xlsx: a row of unclosed <c>', extension: '.xlsx', build: (n) => xlsx({ sheet: `<worksheet><sheetData><row r="1">${fill('<c>', n)}</row>` }) },
  { name: 'xlsx: a cell of unclosed <v>', extension: '.xlsx', build: (n) => xlsx({ sheet: `<sheetData><row r="1"><c r="A1">${fill('<v>', n)}</c></row>` }) },
  { name: 'xlsx: a workbook of unclosed <sheet', extension: '.xlsx', build: (n) => xlsx({ workbook: `<workbook>${fill('<sheet ', n)}` }) },
  { name: 'xlsx: relationships of unclosed <Relationship', extension: '.xlsx', build: (n) => xlsx({ rels: fill('<Relationship ', n) }) },
  {
    name: 'xlsx: every row has one cell in the last column',
    extension: '.xlsx',
    build: (n) => xlsx({ sheet: rowsOf(Math.floor(n / 48), (r) => `<row r="${r}"><c r="XFD${r}"><v>${r}</v></c></row>`) }),
  },
  {
    name: 'xlsx: cells far beyond the last column',
    extension: '.xlsx',
    build: (n) => xlsx({ sheet: rowsOf(Math.floor(n / 52), (r) => `<row r="${r}"><c r="ZZZZZZ${r}"><v>${r}</v></c></row>`) }),
  },
  {
    name: 'xlsx: a workbook naming one large sheet many times',
    extension: '.xlsx',
    build: (n) =>
      xlsx({
        workbook: `<workbook xmlns:r="${REL}"><sheets>${fill('<sheet name="S" sheetId="1" r:id="rId1"/>', n / 2)}</sheets></workbook>`,
        sheet: rowsOf(Math.floor(n / 2 / 40), (r) => `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`),
      }),
  },
  // PPTX: the same, for slides and their paragraphs.
  { name: 'pptx: a slide of unclosed <a:p>', extension: '.pptx', build: (n) => pptx({ slide: `<p:sld>${fill('<a:p>', n)}` }) },
  { name: 'pptx: a paragraph of unclosed <a:t>', extension: '.pptx', build: (n) => pptx({ slide: `<p:sld><a:p>${fill('<a:t>', n)}</a:p></p:sld>` }) },
  { name: 'pptx: a slide list of unclosed <p:sldId', extension: '.pptx', build: (n) => pptx({ presentation: fill('<p:sldId ', n) }) },
  { name: 'pptx: relationships of unclosed <Relationship', extension: '.pptx', build: (n) => pptx({ rels: fill('<Relationship ', n) }) },
  {
    name: 'pptx: a slide list naming one large slide many times',
    extension: '.pptx',
    build: (n) =>
      pptx({
        presentation: `<p:presentation xmlns:r="${REL}"><p:sldIdLst>${fill('<p:sldId id="256" r:id="rId1"/>', n / 2)}</p:sldIdLst></p:presentation>`,
        slide: `<p:sld>${fill('<a:p><a:r><a:t>word</a:t></a:r></a:p>', n / 2)}</p:sld>`,
      }),
  },
  { name: 'pptx: text of a long run of entities-like text', extension: '.pptx', build: (n) => pptx({ slide: `<p:sld><a:p><a:t>${fill('&amp', n)}</a:t></a:p></p:sld>` }) },
];
