import zlib from 'node:zlib';
import { zipSync } from 'fflate';

// Zips read by their central directory before anything is inflated (issue 27). An OOXML upload is a zip, and a zip
// of a few hundred KB can unpack to gigabytes: whatever inflates one must know, before it starts, how much it may
// produce, and stop there. A directory can lie about sizes, so every inflation here is capped at what the entry
// declares: an entry that unpacks to more is refused (ZipSizeLieError), never inflated to the end.

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const ZIP64_EXTRA = 0x0001;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
/** The end record (22 bytes) plus the longest comment it may carry. */
const END_SEARCH = 22 + U16_MAX;

/** OOXML documents (zips) may unpack to this much in all: an upload declaring more is a zip bomb. */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
/** ...and hold at most this many parts (a zip of a million empty entries is a bomb too). */
export const MAX_ZIP_ENTRIES = 10_000;

/** The zip's structure does not read (truncated, inconsistent, encrypted, or a method nothing here inflates). */
export class BadZipError extends Error {
  override name = 'BadZipError';
}

/** More entries than the caller allows: counting stopped there, so a million-entry directory costs no more. */
export class TooManyZipEntriesError extends Error {
  override name = 'TooManyZipEntriesError';
}

/** An entry unpacks to more than it declares: the directory lies (the mark of a crafted zip bomb). */
export class ZipSizeLieError extends Error {
  override name = 'ZipSizeLieError';
  constructor() {
    super('the file unpacks to more than its parts declare');
  }
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are refused when inflated). */
  method: number;
  compressedSize: number;
  /** The unpacked size declared: the larger of the directory's and the local header's, where they differ. */
  declaredSize: number;
  /** Where the entry's compressed bytes start. */
  dataOffset: number;
}

/** Content starting with a zip's local file header (PK\x03\x04), as every OOXML document does. */
export function startsAsZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === LOCAL_HEADER;
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** A 64-bit size as a number: past 2^53 it is inexact, but any such size is refused long before that matters. */
function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 2 ** 32;
}

function need(condition: boolean, what: string): asserts condition {
  if (!condition) throw new BadZipError(`the zip's ${what} does not read`);
}

/** The ZIP64 extra field's values for the fields that were 0xFFFFFFFF, in the order the format lists them. */
function zip64Values(b: Uint8Array, extraStart: number, extraEnd: number, wanted: number): number[] {
  for (let at = extraStart; at + 4 <= extraEnd; ) {
    const id = u16(b, at);
    const size = u16(b, at + 2);
    if (id === ZIP64_EXTRA) {
      need(size >= wanted * 8 && at + 4 + size <= extraEnd, 'ZIP64 extra field');
      return Array.from({ length: wanted }, (_, i) => u64(b, at + 4 + i * 8));
    }
    at += 4 + size;
  }
  throw new BadZipError("the zip's ZIP64 extra field is missing");
}

interface Directory {
  start: number;
  end: number;
}

function findDirectory(b: Uint8Array): Directory {
  let eocd = -1;
  for (let at = b.length - 22; at >= Math.max(0, b.length - END_SEARCH); at--) {
    if (u32(b, at) === END_OF_DIRECTORY) {
      eocd = at;
      break;
    }
  }
  need(eocd >= 0, 'end of directory');
  let size = u32(b, eocd + 12);
  let start = u32(b, eocd + 16);
  if (size === U32_MAX || start === U32_MAX || u16(b, eocd + 10) === U16_MAX) {
    const locator = eocd - 20;
    need(locator >= 0 && u32(b, locator) === ZIP64_LOCATOR, 'ZIP64 locator');
    const record = u64(b, locator + 8);
    need(record + 56 <= locator && u32(b, record) === ZIP64_END, 'ZIP64 end of directory');
    size = u64(b, record + 40);
    start = u64(b, record + 48);
  }
  need(start + size <= eocd, 'directory');
  return { start, end: start + size };
}

/**
 * The zip's entries as its central directory lists them, each checked against its local header (the signature,
 * where its data starts and ends, and the sizes it declares when it declares them). Reads headers only: nothing is
 * inflated. Throws TooManyZipEntriesError past `maxEntries`, BadZipError for anything that does not read, for
 * entries whose data overlap (a known bomb trick: many entries unpacking the same bytes) or that share a name.
 */
export function readZipDirectory(b: Uint8Array, maxEntries: number): ZipEntry[] {
  const dir = findDirectory(b);
  const entries: ZipEntry[] = [];
  const spans: Array<[start: number, end: number]> = [];
  const names = new Set<string>();
  const utf8 = new TextDecoder();
  for (let at = dir.start; at < dir.end; ) {
    need(at + 46 <= dir.end && u32(b, at) === CENTRAL_HEADER, 'directory entry');
    if (entries.length === maxEntries) throw new TooManyZipEntriesError(`the zip holds more than ${maxEntries} entries`);
    const flags = u16(b, at + 8);
    const method = u16(b, at + 10);
    let compressedSize = u32(b, at + 20);
    let declaredSize = u32(b, at + 24);
    const nameLength = u16(b, at + 28);
    const extraStart = at + 46 + nameLength;
    const extraEnd = extraStart + u16(b, at + 30);
    let localOffset = u32(b, at + 42);
    const next = extraEnd + u16(b, at + 32);
    need(next <= dir.end, 'directory entry');
    need((flags & 1) === 0, 'encryption');
    // ZIP64: the fields set to 0xFFFFFFFF are in the extra field, in this order.
    const big = [declaredSize, compressedSize, localOffset].map((v) => v === U32_MAX);
    if (big.some(Boolean)) {
      const values = zip64Values(b, extraStart, extraEnd, big.filter(Boolean).length);
      if (big[0]) declaredSize = values.shift() as number;
      if (big[1]) compressedSize = values.shift() as number;
      if (big[2]) localOffset = values.shift() as number;
    }
    const name = utf8.decode(b.subarray(at + 46, extraStart));
    need(!names.has(name), 'entry names (one is repeated)');
    names.add(name);

    need(localOffset + 30 <= dir.start && u32(b, localOffset) === LOCAL_HEADER, 'local header');
    const dataOffset = localOffset + 30 + u16(b, localOffset + 26) + u16(b, localOffset + 28);
    need(dataOffset + compressedSize <= dir.start, 'entry data');
    // Without a data descriptor (flag bit 3) the local header declares the sizes too: a directory that declares
    // less than the header hides the size, so the larger counts.
    const localSize = u32(b, localOffset + 22);
    if ((flags & 8) === 0 && localSize !== U32_MAX) declaredSize = Math.max(declaredSize, localSize);
    // A stored entry is as large as its data, whatever it declares.
    if (method === 0) declaredSize = Math.max(declaredSize, compressedSize);

    entries.push({ name, method, compressedSize, declaredSize, dataOffset });
    spans.push([localOffset, dataOffset + compressedSize]);
    at = next;
  }
  spans.sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < spans.length; i++) need(spans[i][0] >= spans[i - 1][1], 'entries (two overlap)');
  return entries;
}

/**
 * One entry's content, inflated to at most its declared size: ZipSizeLieError as soon as it would produce more.
 * The caller decides beforehand whether the declared size is acceptable.
 */
export function inflateEntry(b: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = b.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw new BadZipError(`the zip's entry ${entry.name} uses a compression method that is not supported`);
  let out: Buffer;
  try {
    // zlib stops (and throws) once its output passes maxOutputLength: at most one chunk more is ever held.
    out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.declaredSize), chunkSize: 64 * 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipSizeLieError();
    throw new BadZipError(`the zip's entry ${entry.name} does not inflate`);
  }
  if (out.length > entry.declaredSize) throw new ZipSizeLieError();
  return out;
}

/** Thrown by unzipCapped when the entries read declare more than its limit in all. */
export class ZipTooLargeError extends Error {
  override name = 'ZipTooLargeError';
}

/**
 * The entries `wanted` picks, inflated: each to at most its declared size, all together to at most `maxTotalBytes`
 * (checked on the declared sizes before anything is inflated). For extraction, where a file may be read that no
 * upload check saw (or that one saw under other limits).
 */
export function unzipCapped(
  b: Uint8Array,
  wanted: (entry: ZipEntry) => boolean,
  limits: { maxEntries: number; maxTotalBytes: number },
): Record<string, Uint8Array> {
  const entries = readZipDirectory(b, limits.maxEntries).filter(wanted);
  const total = entries.reduce((sum, e) => sum + e.declaredSize, 0);
  if (total > limits.maxTotalBytes) {
    throw new ZipTooLargeError(`the file unpacks to more than ${Math.round(limits.maxTotalBytes / (1024 * 1024))} MB`);
  }
  return Object.fromEntries(entries.map((e) => [e.name, inflateEntry(b, e)]));
}

/**
 * The zip again, every entry inflated under unzipCapped's caps and stored uncompressed: for a reader that inflates
 * by itself without a cap (mammoth, through JSZip), so that it can only ever unpack what was counted here.
 */
export function repackCapped(b: Uint8Array): Uint8Array {
  const files = unzipCapped(b, () => true, { maxEntries: MAX_ZIP_ENTRIES, maxTotalBytes: MAX_UNPACKED_BYTES });
  return zipSync(files, { level: 0 });
}
