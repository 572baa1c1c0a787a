import path from 'node:path';
import { FileTypeParser, type Detector } from 'file-type';
import {
  ACCEPTED_EXTENSIONS,
  UPLOAD_TYPE_REFUSED,
  uploadContentMismatch,
  type AcceptedExtension,
} from '../../../contract/documents-constants';
import {
  BadZipError,
  inflateEntry,
  MAX_UNPACKED_BYTES,
  MAX_ZIP_ENTRIES,
  readZipDirectory,
  startsAsZip,
  TooManyZipEntriesError,
  ZipSizeLieError,
  type ZipEntry,
} from './ingest/zip-directory';
import { TooLargeError, UnsupportedTypeError } from '../errors';

// What a file really is, decided from its name AND its bytes (spec section 5, issue 9): a name alone proves nothing,
// and a renamed executable must never be stored and handed out as a "PDF".

/**
 * A part (or the whole) declaring more than this many times its packed size: deflate reaches about 1,000:1 only on
 * degenerate content, real XML 5-50:1. Small parts are spared (a tiny, very regular part is harmless).
 */
export const MAX_PACKING_RATIO = 250;
const RATIO_SPARED_ENTRY_BYTES = 1024 * 1024;
const RATIO_SPARED_TOTAL_BYTES = 10 * 1024 * 1024;
/** [Content_Types].xml lists one line per part: 10,000 parts take about 2 MB. */
const CONTENT_TYPES_MAX_BYTES = 4 * 1024 * 1024;

export const ZIP_BOMB = `The file unpacks to more than ${MAX_UNPACKED_BYTES / (1024 * 1024)} MB, so it was not accepted.`;
export const ZIP_TOO_DENSE = `The file unpacks to more than ${MAX_PACKING_RATIO} times its size, so it was not accepted.`;
export const ZIP_LIES = 'The file unpacks to more than its parts declare, so it was not accepted.';
export const TOO_MANY_PARTS = `The file holds more than ${MAX_ZIP_ENTRIES.toLocaleString('en-US')} parts, so it was not accepted.`;
export const EMPTY_FILE = 'The file is empty.';

type Kind = 'image' | 'pdf' | 'office' | 'audio' | 'text';

interface TypeRule {
  kind: Kind;
  /** What is stored and served as Content-Type. */
  mime: string;
  /** file-type's `ext` for content of this kind (none for text: it has no magic, it is checked as UTF-8). */
  detected?: string;
}

const RULES: Record<AcceptedExtension, TypeRule> = {
  '.jpeg': { kind: 'image', mime: 'image/jpeg', detected: 'jpg' },
  '.jpg': { kind: 'image', mime: 'image/jpeg', detected: 'jpg' },
  '.png': { kind: 'image', mime: 'image/png', detected: 'png' },
  '.pdf': { kind: 'pdf', mime: 'application/pdf', detected: 'pdf' },
  '.txt': { kind: 'text', mime: 'text/plain' },
  '.md': { kind: 'text', mime: 'text/markdown' },
  '.csv': { kind: 'text', mime: 'text/csv' },
  '.docx': {
    kind: 'office',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    detected: 'docx',
  },
  '.xlsx': { kind: 'office', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', detected: 'xlsx' },
  '.pptx': {
    kind: 'office',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    detected: 'pptx',
  },
  '.mp3': { kind: 'audio', mime: 'audio/mpeg', detected: 'mp3' },
  '.m4a': { kind: 'audio', mime: 'audio/mp4', detected: 'm4a' },
};

export interface CheckedFile {
  extension: AcceptedExtension;
  mime: string;
  kind: Kind;
}

/** The accepted extension of a name (lower case, with the dot), or undefined. */
export function acceptedExtension(filename: string): AcceptedExtension | undefined {
  const extension = path.extname(filename).toLowerCase();
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extension) ? (extension as AcceptedExtension) : undefined;
}

/** Images shown inline (by <img>, from GET /files/{key}); every other type is only ever downloaded. */
export function isInlineImage(mime: string): boolean {
  return mime === 'image/png' || mime === 'image/jpeg';
}

/**
 * The file's accepted type, or a domain error: 415 for a name outside the accepted list or content that is not what
 * the name says, 413 for an OOXML zip that unpacks to too much (or more than it declares) or holds too many parts.
 * `filename` is the display name (already sanitised).
 */
export async function checkUpload(filename: string, bytes: Uint8Array): Promise<CheckedFile> {
  const extension = acceptedExtension(filename);
  if (!extension) throw new UnsupportedTypeError(UPLOAD_TYPE_REFUSED, 'upload_type_refused');
  if (bytes.length === 0) throw new UnsupportedTypeError(EMPTY_FILE, 'upload_empty');
  const rule = RULES[extension];
  const mismatch = () => new UnsupportedTypeError(uploadContentMismatch(extension), 'upload_content_mismatch');

  if (rule.kind === 'text') {
    if (!isUtf8Text(bytes)) throw mismatch();
  } else if (rule.kind === 'office') {
    if (ooxmlType(bytes, mismatch) !== rule.detected) throw mismatch();
  } else {
    const detected = await sniffer.fromBuffer(bytes);
    if (detected?.ext !== rule.detected) throw mismatch();
  }
  return { extension, mime: rule.mime, kind: rule.kind };
}

/**
 * file-type opens a zip to tell its kind, inflating [Content_Types].xml whole (600 MB from a 600 KB file, issue 27),
 * and inflates gzip too; it also looks past an ID3 tag, so a zip can hide behind one. Images, PDFs and audio are
 * never archives: these are answered as what they are, unopened (custom detectors run first, also after an ID3 tag).
 */
const unopenedArchives: Detector = {
  id: 'tanya.unopened-archives',
  async detect(tokenizer) {
    const head = new Uint8Array(4);
    const read = await tokenizer.peekBuffer(head, { length: 4, mayBeLess: true });
    if (read >= 4 && startsAsZip(head)) return { ext: 'zip', mime: 'application/zip' };
    if (read >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08) return { ext: 'gz', mime: 'application/gzip' };
    return undefined;
  },
};
const sniffer = new FileTypeParser({ customDetectors: [unopenedArchives] });

/** Valid UTF-8 (a BOM is fine) without NUL: a binary renamed .txt fails one or the other. */
function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** file-type's names for the main part's content type (its `.main+xml` suffix left off). */
const OOXML_TYPES: Record<string, string> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/**
 * What an OOXML upload is ('docx', 'xlsx', 'pptx', or undefined), decided without inflating anything large on the
 * server's thread (issue 27): the zip's directory first (its number of parts, the sizes they declare and how densely
 * they are packed), then only [Content_Types].xml, inflated to at most the size it declares (itself capped), where
 * the main part's content type names the kind as file-type reads it. Extraction caps what it inflates again.
 */
function ooxmlType(bytes: Uint8Array, mismatch: () => Error): string | undefined {
  if (!startsAsZip(bytes)) throw mismatch();
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes, MAX_ZIP_ENTRIES);
  } catch (err) {
    if (err instanceof TooManyZipEntriesError) throw new TooLargeError(TOO_MANY_PARTS, 'upload_too_many_parts');
    // Not a zip anything could open.
    throw mismatch();
  }
  checkDeclaredSizes(entries, bytes.length);

  const contentTypes = entries.find((e) => e.name === '[Content_Types].xml');
  if (!contentTypes || contentTypes.declaredSize > CONTENT_TYPES_MAX_BYTES) throw mismatch();
  let xml: string;
  try {
    xml = new TextDecoder().decode(inflateEntry(bytes, contentTypes));
  } catch (err) {
    if (err instanceof ZipSizeLieError) throw new TooLargeError(ZIP_LIES, 'upload_zip_bomb');
    if (err instanceof BadZipError) throw mismatch();
    throw err;
  }
  // As file-type reads it: the content type ending at the first `.main+xml"`.
  const end = xml.indexOf('.main+xml"');
  if (end === -1) return undefined;
  const head = xml.slice(0, end);
  return OOXML_TYPES[head.slice(head.lastIndexOf('"') + 1).toLowerCase()];
}

/** Refuses (413) a zip whose parts declare too much unpacked, in all or for the bytes they take. */
function checkDeclaredSizes(entries: ZipEntry[], fileBytes: number): void {
  const total = entries.reduce((sum, e) => sum + e.declaredSize, 0);
  if (total > MAX_UNPACKED_BYTES) throw new TooLargeError(ZIP_BOMB, 'upload_zip_bomb');
  const dense = entries.some((e) => e.declaredSize > RATIO_SPARED_ENTRY_BYTES && e.declaredSize > MAX_PACKING_RATIO * e.compressedSize);
  if (dense || (total > RATIO_SPARED_TOTAL_BYTES && total > MAX_PACKING_RATIO * fileBytes)) {
    throw new TooLargeError(ZIP_TOO_DENSE, 'upload_zip_bomb');
  }
}
