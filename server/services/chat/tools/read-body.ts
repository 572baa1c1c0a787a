/**
 * A fetch Response's body, up to `maxBytes`: a declared Content-Length above it is refused before reading, and
 * reading stops as soon as the limit is passed (an endpoint cannot fill the memory). Throws `tooLarge()`.
 */
export async function readLimited(res: Response, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (!res.body || (Number.isFinite(declared) && declared > maxBytes)) {
    await res.body?.cancel().catch(() => undefined);
    if (!res.body) return Buffer.alloc(0);
    throw tooLarge();
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length;
      if (size > maxBytes) throw tooLarge();
      parts.push(read.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts);
}
