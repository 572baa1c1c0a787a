import zlib from 'node:zlib';
import { unzipSync } from 'fflate';

// Zip bombs built without ever holding what they unpack to: a deflate stream of N MB of one repeated byte is one
// compressed megabyte repeated N times (each copy starts with a literal and copies it at distance 1, so it needs
// nothing from the copy before it), ending with an empty final block. 600 MB of spaces is about 600 KB.

const MB = 1024 * 1024;

export interface BombPart {
  /** The raw deflate stream. */
  data: Buffer;
  /** What it really inflates to, and that content's CRC-32 (a zip's directory needs both). */
  size: number;
  crc: number;
}

/** `prefix` followed by `fillMb` MB of `fill`, raw-deflated in a few hundred KB (never allocating the output). */
export function deflatedFill(prefix: string, fillMb: number, fill = 0x20): BombPart {
  const head = Buffer.from(prefix, 'utf8');
  const block = Buffer.alloc(MB, fill);
  const flush = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  // Non-final blocks ending byte-aligned (the sync flush), so copies can follow one another.
  const headStream = zlib.deflateRawSync(head, flush);
  const blockStream = zlib.deflateRawSync(block, flush);
  // A final fixed-Huffman block holding only its end code.
  const end = Buffer.from([0x03, 0x00]);
  let crc = zlib.crc32(head);
  for (let i = 0; i < fillMb; i++) crc = zlib.crc32(block, crc);
  const data = Buffer.concat([headStream, ...Array.from({ length: fillMb }, () => blockStream), end]);
  return { data, size: head.length + fillMb * MB, crc };
}

export interface Entry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** What the local header and the central directory declare as unpacked size. */
  declared: number;
}

export interface ZipStyle {
  /** Sizes in ZIP64 extra fields (0xFFFFFFFF in the headers), as some writers do even for small files. */
  zip64?: boolean;
  /** Sizes after the data (flag bit 3, zeros in the local header), as streaming writers do. */
  descriptor?: boolean;
}

const U32_MAX = 0xffffffff;

function zip64Extra(...values: number[]): Buffer {
  const extra = Buffer.alloc(4 + values.length * 8);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(values.length * 8, 2);
  values.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + i * 8));
  return extra;
}

/** A zip of deflated (or stored) entries whose local headers and directory say `declared` (honest or not). */
export function writeZip(entries: Entry[], style: ZipStyle = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const flags = 0x0800 | (style.descriptor ? 0x0008 : 0); // UTF-8 names
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const localExtra = style.zip64 ? zip64Extra(e.declared, e.data.length) : Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(style.zip64 ? 45 : 20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(e.method, 8);
    if (!style.descriptor) {
      local.writeUInt32LE(e.crc >>> 0, 14);
      local.writeUInt32LE(style.zip64 ? U32_MAX : e.data.length, 18);
      local.writeUInt32LE(style.zip64 ? U32_MAX : e.declared, 22);
    }
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtra.length, 28);
    const descriptor = Buffer.alloc(style.descriptor ? 16 : 0);
    if (style.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(e.crc >>> 0, 4);
      descriptor.writeUInt32LE(e.data.length, 8);
      descriptor.writeUInt32LE(e.declared, 12);
    }
    locals.push(local, name, localExtra, e.data, descriptor);
    const centralExtra = style.zip64 ? zip64Extra(e.declared, e.data.length, offset) : Buffer.alloc(0);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(style.zip64 ? 45 : 20, 4);
    central.writeUInt16LE(style.zip64 ? 45 : 20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(style.zip64 ? U32_MAX : e.data.length, 20);
    central.writeUInt32LE(style.zip64 ? U32_MAX : e.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(centralExtra.length, 30);
    central.writeUInt32LE(style.zip64 ? U32_MAX : offset, 42);
    centrals.push(central, name, centralExtra);
    offset += 30 + name.length + localExtra.length + e.data.length + descriptor.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a (small, honest) zip as entries to write again, deflated, [Content_Types].xml first. */
export function entriesOf(document: Uint8Array): Entry[] {
  const entries: Entry[] = Object.entries(unzipSync(document)).map(([name, bytes]) => ({
    name,
    method: 8,
    data: zlib.deflateRawSync(bytes),
    crc: zlib.crc32(bytes),
    declared: bytes.length,
  }));
  // As Office writes it (and as file-type reads the parts).
  return entries.sort((a, b) => Number(b.name === '[Content_Types].xml') - Number(a.name === '[Content_Types].xml'));
}

/**
 * A real OOXML document (`document`, e.g. a docxFile) with its part `partName` replaced by `part`: declaring its
 * true unpacked size, or `declared` bytes (a directory that lies), in both its local header and the directory.
 */
export function withBombPart(document: Uint8Array, partName: string, part: BombPart, declared = part.size): Buffer {
  const entries = entriesOf(document);
  const target = entries.find((e) => e.name === partName);
  if (!target) throw new Error(`${partName} is not a part of this document`);
  Object.assign(target, { data: part.data, crc: part.crc, declared });
  return writeZip(entries);
}

/** A zip of `count` empty stored entries: a bomb by its number of parts. */
export function manyEntriesZip(document: Uint8Array, count: number): Buffer {
  const entries = entriesOf(document);
  for (let i = 0; entries.length < count; i++) entries.push({ name: `word/media/empty${i}.bin`, method: 0, data: Buffer.alloc(0), crc: 0, declared: 0 });
  return writeZip(entries);
}
