// Draws the app icons (PNG) without any image library: shapes as signed distance functions, 4x4 supersampled.
// Run `node scripts/make-icons.mjs` after changing the design; the PNGs are committed under public/icons.
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const YELLOW = [222, 200, 78];
const DARK = [31, 41, 55];

const roundRect = (x, y, cx, cy, hw, hh, r) => {
  const dx = Math.abs(x - cx) - hw + r;
  const dy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
};
const triangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const s = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = s(x, y, ax, ay, bx, by), d2 = s(x, y, bx, by, cx, cy), d3 = s(x, y, cx, cy, ax, ay);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos) ? -1 : 1;
};

/** Colour at a point of the unit square; `scale` shrinks the artwork into the maskable safe zone. */
function shade(u, v, { maskable }) {
  const k = maskable ? 0.72 : 1;
  const x = (u - 0.5) / k + 0.5, y = (v - 0.5) / k + 0.5;
  const bg = maskable ? -1 : roundRect(u, v, 0.5, 0.5, 0.5, 0.5, 0.22);
  if (bg > 0) return null; // transparent corner
  const bubble = Math.min(roundRect(x, y, 0.5, 0.45, 0.32, 0.25, 0.1), triangle(x, y, [0.3, 0.62], [0.44, 0.68], [0.26, 0.82]) < 0 ? -1 : 1);
  if (bubble < 0) {
    const bar = roundRect(x, y, 0.5, 0.33, 0.17, 0.045, 0.02);
    const stem = roundRect(x, y, 0.5, 0.47, 0.045, 0.16, 0.02);
    return Math.min(bar, stem) < 0 ? YELLOW : DARK;
  }
  return YELLOW;
}

function png(size, opts) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const S = 4;
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0;
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) for (let sx = 0; sx < S; sx++) {
        const c = shade((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size, opts);
        if (c) { r += c[0]; g += c[1]; b += c[2]; a += 1; }
      }
      const o = py * (size * 4 + 1) + 1 + px * 4;
      const n = S * S;
      raw[o] = a ? Math.round(r / a) : 0; raw[o + 1] = a ? Math.round(g / a) : 0; raw[o + 2] = a ? Math.round(b / a) : 0;
      raw[o + 3] = Math.round((a / n) * 255);
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
  const crc = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0); ihdr.writeUInt32BE(size, 4); ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', png(192, { maskable: false }));
writeFileSync('public/icons/icon-512.png', png(512, { maskable: false }));
writeFileSync('public/icons/icon-maskable-512.png', png(512, { maskable: true }));
writeFileSync('public/icons/apple-touch-icon.png', png(180, { maskable: true }));
writeFileSync(
  'public/icons/favicon.svg',
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="rgb(222,200,78)"/>` +
    `<path d="M18 13h28a6 6 0 0 1 6 6v20a6 6 0 0 1-6 6H30l-13 8 2-8a6 6 0 0 1-5-6V19a6 6 0 0 1 6-6z" fill="#1f2937"/>` +
    `<path d="M22 19h20v6h-7v15h-6V25h-7z" fill="rgb(222,200,78)"/></svg>\n`,
);
console.log('icons written to public/icons');
