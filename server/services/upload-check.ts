import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { unzipSync } from 'fflate';
import {
  ACCEPTED_EXTENSIONS,
  UPLOAD_TYPE_REFUSED,
  uploadContentMismatch,
  type AcceptedExtension,
} from '../../contract/documents-constants';
import { TooLargeError, UnsupportedTypeError } from './errors';

// What a file really is, decided from its name AND its bytes (spec section 5, issue 9): a name alone proves nothing,
// and a renamed executable must never be stored and handed out as a "PDF".

/** OOXML documents are zips: refused when their parts declare more than this, unpacked (a zip bomb). */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
/** ...or more parts than any real document has (a zip of a million empty entries is a bomb too). */
export const MAX_ZIP_ENTRIES = 10_000;
export const ZIP_BOMB = `The file unpacks to more than ${MAX_UNPACKED_BYTES / (1024 * 1024)} MB, so it was not accepted.`;
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
 * the name says, 413 for an OOXML zip that unpacks to too much. `filename` is the display name (already sanitised).
 */
export async function checkUpload(filename: string, bytes: Uint8Array): Promise<CheckedFile> {
  const extension = acceptedExtension(filename);
  if (!extension) throw new UnsupportedTypeError(UPLOAD_TYPE_REFUSED, 'upload_type_refused');
  if (bytes.length === 0) throw new UnsupportedTypeError(EMPTY_FILE, 'upload_empty');
  const rule = RULES[extension];
  const mismatch = () => new UnsupportedTypeError(uploadContentMismatch(extension), 'upload_content_mismatch');

  if (rule.kind === 'text') {
    if (!isUtf8Text(bytes)) throw mismatch();
  } else {
    const detected = await fileTypeFromBuffer(bytes);
    if (detected?.ext !== rule.detected) throw mismatch();
    if (rule.kind === 'office') checkZipBomb(bytes, mismatch);
  }
  return { extension, mime: rule.mime, kind: rule.kind };
}

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

/**
 * Reads only the zip's directory (the filter declines every entry, so nothing is inflated) and adds up the sizes
 * the entries declare. Extraction must still cap what it really inflates: a declared size can lie.
 */
function checkZipBomb(bytes: Uint8Array, mismatch: () => Error): void {
  let entries = 0;
  let unpacked = 0;
  try {
    unzipSync(bytes, {
      filter(file) {
        entries += 1;
        unpacked += file.originalSize;
        return false;
      },
    });
  } catch {
    // file-type saw an OOXML zip, but its directory does not read: not a document we could open.
    throw mismatch();
  }
  if (unpacked > MAX_UNPACKED_BYTES || entries > MAX_ZIP_ENTRIES) throw new TooLargeError(ZIP_BOMB, 'upload_zip_bomb');
}
