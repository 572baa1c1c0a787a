import { describe, expect, it } from 'vitest';
import { UPLOAD_TYPE_REFUSED, uploadContentMismatch } from '../../contract/documents-constants';
import { TooLargeError, UnsupportedTypeError } from '../../server/services/errors';
import { checkUpload, EMPTY_FILE, ZIP_BOMB, ZIP_TOO_DENSE } from '../../server/services/documents/upload-check';
import {
  docxFile,
  EXE_BYTES,
  JPEG_BYTES,
  m4aFile,
  mp3File,
  pdfFile,
  plainZip,
  PNG_BYTES,
  pptxFile,
  xlsxFile,
  zipBombDocx,
} from './helpers/document-fixtures';
import { deflatedFill, entriesOf, withBombPart, writeZip } from './helpers/zip-bombs';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

async function refusal(filename: string, bytes: Buffer): Promise<Error> {
  const error = await checkUpload(filename, bytes).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  if (!error) throw new Error(`${filename} was accepted`);
  return error;
}

describe('an upload is judged by its name and its content', () => {
  it.each([
    ['photo.jpeg', JPEG_BYTES, 'image/jpeg'],
    ['photo.JPG', JPEG_BYTES, 'image/jpeg'],
    ['pixel.png', PNG_BYTES, 'image/png'],
    ['report.pdf', pdfFile(['Quarterly report']), 'application/pdf'],
    ['notes.txt', utf8('Plain notes, with ünïcode ✓\n'), 'text/plain'],
    ['readme.md', utf8('# Title\n\nSome *markdown*.'), 'text/markdown'],
    ['table.csv', utf8('\uFEFFname,amount\nNur,12\n'), 'text/csv'],
    ['letter.docx', docxFile(['Dear reader,', 'Hello.']), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', xlsxFile({ Sales: [['Region', 'Total'], ['North', 12]] }), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['deck.pptx', pptxFile(['Welcome', 'Agenda\nOne\nTwo']), 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['song.mp3', mp3File(), 'audio/mpeg'],
    ['bare.mp3', mp3File({ id3: false }), 'audio/mpeg'],
    ['voice.m4a', m4aFile(), 'audio/mp4'],
  ])('accepts %s as %s', async (filename, bytes, mime) => {
    const checked = await checkUpload(filename, bytes);
    expect(checked.mime).toBe(mime);
    expect(checked.extension).toBe(filename.slice(filename.lastIndexOf('.')).toLowerCase());
  });

  it.each([
    ['setup.exe', EXE_BYTES],
    ['archive.zip', plainZip()],
    ['page.html', utf8('<html></html>')],
    ['no-extension', utf8('hello')],
    ['image.gif', Buffer.from('GIF89a', 'latin1')],
  ])('refuses the type of %s (415, the list of accepted types)', async (filename, bytes) => {
    const error = await refusal(filename, bytes);
    expect(error).toBeInstanceOf(UnsupportedTypeError);
    expect(error.message).toBe(UPLOAD_TYPE_REFUSED);
  });

  it.each([
    ['an executable renamed .pdf', 'invoice.pdf', EXE_BYTES],
    ['a PNG named .pdf', 'scan.pdf', PNG_BYTES],
    ['a PNG named .txt', 'notes.txt', PNG_BYTES],
    ['a JPEG named .png', 'pixel.png', JPEG_BYTES],
    ['a PDF named .jpg', 'photo.jpg', pdfFile(['x'])],
    ['invalid UTF-8 named .txt', 'notes.txt', Buffer.from([0x68, 0x69, 0xc3, 0x28])],
    ['a NUL in a .md', 'readme.md', utf8('# Title\u0000hidden')],
    ['UTF-16 text named .csv', 'table.csv', Buffer.from('\uFEFFa,b', 'utf16le')],
    ['a plain zip named .docx', 'letter.docx', plainZip()],
    ['a spreadsheet named .docx', 'letter.docx', xlsxFile({ S: [['a']] })],
    ['a presentation named .xlsx', 'sheet.xlsx', pptxFile(['x'])],
    ['an M4A named .mp3', 'song.mp3', m4aFile()],
    ['an MP3 named .m4a', 'voice.m4a', mp3File()],
    ['text named .pdf', 'report.pdf', utf8('just text')],
  ])('refuses %s as a mismatch (415)', async (_case, filename, bytes) => {
    const error = await refusal(filename, bytes);
    expect(error).toBeInstanceOf(UnsupportedTypeError);
    expect(error.message).toBe(uploadContentMismatch(filename.slice(filename.lastIndexOf('.'))));
  });

  it('refuses an empty file', async () => {
    const error = await refusal('empty.txt', Buffer.alloc(0));
    expect(error).toBeInstanceOf(UnsupportedTypeError);
    expect(error.message).toBe(EMPTY_FILE);
  });

  it('refuses an OOXML zip declaring more than 200 MB unpacked (a zip bomb) by its directory, without inflating it', async () => {
    const bomb = zipBombDocx(300 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(10_000);
    const started = performance.now();
    const error = await refusal('bomb.docx', bomb);
    expect(performance.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(TooLargeError);
    expect(error.message).toBe(ZIP_BOMB);
    // The same document declaring its true size is fine.
    await expect(checkUpload('fine.docx', zipBombDocx(50_000))).resolves.toMatchObject({ extension: '.docx' });
  });
});

describe('an OOXML upload is read by its zip directory first (issue 27)', () => {
  const CONTENT_TYPES =
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';

  it('refuses a part packed more densely than any document (100 MB from 100 KB: under 200 MB, still a bomb)', async () => {
    const dense = withBombPart(docxFile(['Hello']), '[Content_Types].xml', deflatedFill(CONTENT_TYPES, 100));
    const error = await refusal('dense.docx', dense);
    expect(error).toBeInstanceOf(TooLargeError);
    expect(error.message).toBe(ZIP_TOO_DENSE);
  });

  it('refuses a zip whose entries share a name or overlap (one packed stream unpacked many times) as a mismatch', async () => {
    const entries = entriesOf(docxFile(['Hello']));
    const twice = writeZip([...entries, { ...entries[entries.length - 1] }]);
    expect((await refusal('twice.docx', twice)).message).toBe(uploadContentMismatch('.docx'));
    // The directory's second entry pointed at the first entry's local header.
    const overlapping = writeZip(entries);
    const second = overlapping.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), overlapping.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 4);
    overlapping.writeUInt32LE(0, second + 42);
    expect((await refusal('overlap.docx', overlapping)).message).toBe(uploadContentMismatch('.docx'));
  });

  it('accepts what real writers do: ZIP64 size fields, sizes after the data (a data descriptor)', async () => {
    const entries = entriesOf(docxFile(['Hello']));
    await expect(checkUpload('zip64.docx', writeZip(entries, { zip64: true }))).resolves.toMatchObject({ extension: '.docx' });
    await expect(checkUpload('streamed.docx', writeZip(entries, { descriptor: true }))).resolves.toMatchObject({ extension: '.docx' });
  });

  it('answers a zip bomb behind an ID3 tag, named .mp3, as not audio, without opening it', async () => {
    const bomb = withBombPart(docxFile(['Hello']), '[Content_Types].xml', deflatedFill(CONTENT_TYPES, 300));
    const id3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, ...Buffer.alloc(10)]);
    // The zip's offsets count from the file's start, as a zip with a prefix (a self-extractor's) has them.
    const at = (signature: number, from = 0) => bomb.indexOf(Buffer.from([0x50, 0x4b, signature & 0xff, signature >> 8]), from);
    for (let central = at(0x0201); central !== -1; central = at(0x0201, central + 4)) bomb.writeUInt32LE(bomb.readUInt32LE(central + 42) + id3.length, central + 42);
    const end = at(0x0605);
    bomb.writeUInt32LE(bomb.readUInt32LE(end + 16) + id3.length, end + 16);
    const started = performance.now();
    const error = await refusal('song.mp3', Buffer.concat([id3, bomb]));
    // file-type looks past the tag and used to inflate the 300 MB part whole (seconds, hundreds of MB).
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.message).toBe(uploadContentMismatch('.mp3'));
  });
});
