import { strToU8, zipSync, type Zippable } from 'fflate';

// Small but real files of every accepted type, made by the tests (no binary fixtures in the repository). Each is
// what the real tool would recognise: the PDF has a valid xref table and text a PDF reader extracts, the OOXML
// zips carry the [Content_Types].xml and relationship parts Office writes, the audio files start with real headers.

/** A 1x1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1x1 JPEG (JFIF). */
export const JPEG_BYTES = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////' +
    'wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A Windows executable's first bytes ("MZ" DOS header), to rename as something harmless. */
export const EXE_BYTES = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(256)]);

/** One MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz: 417 bytes), silent. */
function mp3Frame(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return frame;
}

/** An MP3: an ID3v2.3 tag (empty) followed by frames, as most encoders write it. */
export function mp3File({ id3 = true }: { id3?: boolean } = {}): Buffer {
  const tag = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const frames = Buffer.concat([mp3Frame(), mp3Frame(), mp3Frame()]);
  return id3 ? Buffer.concat([tag, frames]) : frames;
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** An M4A (MPEG-4 audio): the `ftyp` box with the M4A brand, then an (empty) `mdat`. */
export function m4aFile(): Buffer {
  const brands = Buffer.from('M4A \0\0\0\0M4A mp42isom', 'latin1');
  return Buffer.concat([box('ftyp', brands), box('free', Buffer.alloc(8)), box('mdat', Buffer.alloc(64))]);
}

/** Text in a PDF string literal: backslash and parentheses escaped; Latin-1 only (Helvetica's encoding). */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/**
 * A PDF with one page per entry, each page's text shown line by line in Helvetica (so unpdf/pdf.js extracts it).
 * An empty string makes a page with no text at all, like a scanned page.
 */
export function pdfFile(pages: string[]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 2; // ids 1 and 2 are the catalog and the page tree
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const pageIds: number[] = [];
  for (const text of pages) {
    const lines = text ? text.split('\n') : [];
    const ops = lines.map((line, i) => `${i === 0 ? '72 720 Td' : '0 -16 Td'} ${pdfString(line)} Tj`).join('\n');
    const content = lines.length ? `BT /F1 12 Tf\n${ops}\nET` : '';
    const contentId = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> ` +
          `/Contents ${contentId} 0 R >>`,
      ),
    );
  }
  const all = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    ...objects,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  all.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const xmlEscape = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

function contentTypes(overrides: Record<string, string>): string {
  return (
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    Object.entries(overrides)
      .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
      .join('') +
    '</Types>'
  );
}

function rels(entries: Array<[id: string, type: string, target: string]>): string {
  return (
    `${XML}<Relationships xmlns="${PKG_RELS}">` +
    entries.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('') +
    '</Relationships>'
  );
}

/** [Content_Types].xml first, as Office writes it (file-type reads the parts in order). */
function ooxmlZip(parts: Record<string, string>): Buffer {
  const files: Zippable = {};
  for (const [name, text] of Object.entries(parts)) files[name] = strToU8(text);
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** A Word document, one paragraph per entry (a `# ` prefix makes it a Heading 1). */
export function docxFile(paragraphs: string[]): Buffer {
  const body = paragraphs
    .map((p) =>
      p.startsWith('# ')
        ? `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t xml:space="preserve">${xmlEscape(p.slice(2))}</w:t></w:r></w:p>`
        : `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`,
    )
    .join('');
  return ooxmlZip({
    '[Content_Types].xml': contentTypes({
      '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    }),
    '_rels/.rels': rels([['rId1', OFFICE_DOC, 'word/document.xml']]),
    'word/document.xml':
      `${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    'word/_rels/document.xml.rels': rels([]),
  });
}

/** Column letters of a 0-based index: 0 -> A, 26 -> AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A workbook: each sheet a list of rows (the first is the header). Text goes to sharedStrings (as Excel writes it),
 * numbers stay inline.
 */
export function xlsxFile(sheets: Record<string, Array<Array<string | number>>>): Buffer {
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const shared = (text: string) => {
    if (!stringIndex.has(text)) {
      stringIndex.set(text, strings.length);
      strings.push(text);
    }
    return stringIndex.get(text)!;
  };
  const names = Object.keys(sheets);
  const sheetParts: Record<string, string> = {};
  names.forEach((name, s) => {
    const rows = sheets[name]
      .map((row, r) => {
        const cells = row
          .map((value, c) => {
            const ref = `${columnName(c)}${r + 1}`;
            return typeof value === 'number'
              ? `<c r="${ref}"><v>${value}</v></c>`
              : `<c r="${ref}" t="s"><v>${shared(value)}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join('');
    sheetParts[`xl/worksheets/sheet${s + 1}.xml`] =
      `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  });
  const sst =
    `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
    strings.map((t) => `<si><t xml:space="preserve">${xmlEscape(t)}</t></si>`).join('') +
    '</sst>';
  const sheetType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
  return ooxmlZip({
    '[Content_Types].xml': contentTypes({
      '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      '/xl/sharedStrings.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml',
      ...Object.fromEntries(names.map((_, s) => [`/xl/worksheets/sheet${s + 1}.xml`, sheetType])),
    }),
    '_rels/.rels': rels([['rId1', OFFICE_DOC, 'xl/workbook.xml']]),
    'xl/workbook.xml':
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
      names.map((name, s) => `<sheet name="${xmlEscape(name)}" sheetId="${s + 1}" r:id="rId${s + 1}"/>`).join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels': rels([
      ...names.map((_, s): [string, string, string] => [
        `rId${s + 1}`,
        'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet',
        `worksheets/sheet${s + 1}.xml`,
      ]),
      [
        `rId${names.length + 1}`,
        'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings',
        'sharedStrings.xml',
      ],
    ]),
    'xl/sharedStrings.xml': sst,
    ...sheetParts,
  });
}

/** A presentation, one slide per entry; each slide's lines are separate paragraphs of one text box. */
export function pptxFile(slides: string[]): Buffer {
  const slideParts: Record<string, string> = {};
  slides.forEach((text, i) => {
    const paragraphs = text
      .split('\n')
      .map((line) => `<a:p><a:r><a:t>${xmlEscape(line)}</a:t></a:r></a:p>`)
      .join('');
    slideParts[`ppt/slides/slide${i + 1}.xml`] =
      `${XML}<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
      'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>' +
      `<p:sp><p:txBody><a:bodyPr/>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  const slideType = 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml';
  return ooxmlZip({
    '[Content_Types].xml': contentTypes({
      '/ppt/presentation.xml': 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
      ...Object.fromEntries(slides.map((_, i) => [`/ppt/slides/slide${i + 1}.xml`, slideType])),
    }),
    '_rels/.rels': rels([['rId1', OFFICE_DOC, 'ppt/presentation.xml']]),
    'ppt/presentation.xml':
      `${XML}<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ` +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>' +
      slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('') +
      '</p:sldIdLst></p:presentation>',
    'ppt/_rels/presentation.xml.rels': rels(
      slides.map((_, i) => [
        `rId${i + 1}`,
        'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide',
        `slides/slide${i + 1}.xml`,
      ]),
    ),
    ...slideParts,
  });
}

/** A plain zip (no Office parts): what a .docx must not be. */
export function plainZip(): Buffer {
  return Buffer.from(zipSync({ 'notes.txt': strToU8('just a zip'), 'data/list.csv': strToU8('a,b\n1,2\n') }));
}

const CENTRAL_HEADER = 0x02014b50;

/**
 * A zip bomb in disguise: a real .docx whose central directory declares `declaredBytes` of unpacked content for its
 * document part. Real bombs are built the same way (or from highly repetitive data); the check reads the declaration.
 */
export function zipBombDocx(declaredBytes = 300 * 1024 * 1024): Buffer {
  const zip = docxFile(['Nothing to see here.']);
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) continue;
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    // Offset 24 of a central directory header: the uncompressed size.
    if (name === 'word/document.xml') zip.writeUInt32LE(Math.min(declaredBytes, 0xfffffffe), at + 24);
  }
  return zip;
}

/** A multipart/form-data body with one file part (field `file` by default), for app.inject. */
export function multipartBody(
  filename: string,
  bytes: Buffer,
  { field = 'file', contentType = 'application/octet-stream' }: { field?: string; contentType?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tanya-test-${Math.random().toString(16).slice(2)}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename.replace(/"/g, '%22')}"\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head, 'utf8'), bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
