import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

/** Side of the square demo image, in pixels. */
const SIZE = 256;

/**
 * The offline stand-in for a generated image: a PNG drawn here (no model, no download), a diagonal gradient with
 * soft rings whose colours come from the prompt, so different prompts give visibly different images. The reply
 * around it says plainly that it is a demo.
 */
export function drawDemoImage(prompt: string): Buffer {
  const hash = createHash('sha256').update(prompt).digest();
  const from = [hash[0], hash[1], hash[2]];
  const to = [hash[3], hash[4], hash[5]];
  const rings = 4 + (hash[6] % 6);
  // Each row: a filter byte (0: none), then RGB triples.
  const raw = Buffer.alloc((SIZE * 3 + 1) * SIZE);
  for (let y = 0; y < SIZE; y++) {
    const row = y * (SIZE * 3 + 1);
    for (let x = 0; x < SIZE; x++) {
      const t = (x + y) / (2 * (SIZE - 1));
      const distance = Math.hypot(x - SIZE / 2, y - SIZE / 2) / (SIZE / 2);
      const shade = 0.85 + 0.15 * Math.cos(distance * rings * Math.PI);
      for (let c = 0; c < 3; c++) {
        raw[row + 1 + x * 3 + c] = Math.round((from[c] * (1 - t) + to[c] * t) * shade);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}
