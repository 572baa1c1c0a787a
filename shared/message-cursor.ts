/**
 * Where a page of messages starts: its oldest message, by `seq` and `created_at` (the time tells apart the
 * messages an edit wrote after the page was read, which reuse the seqs of the ones it deleted). Clients pass
 * `earlier_cursor` back as `before` and never read it: it is base64url text.
 */
export interface MessageCursor {
  seq: number;
  createdAt: string;
}

/** The time as stored (ISO 8601, also as older systems wrote it): printable text, never a NUL or a separator. */
const CURSOR_TEXT = /^([1-9][0-9]{0,14})\|([0-9A-Za-z:.+ -]{1,64})$/;

export function encodeMessageCursor({ seq, createdAt }: MessageCursor): string {
  return btoa(`${seq}|${createdAt}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** null for anything encodeMessageCursor did not make. */
export function decodeMessageCursor(text: string): MessageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(text)) return null;
  let plain: string;
  try {
    plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const match = CURSOR_TEXT.exec(plain);
  return match ? { seq: Number(match[1]), createdAt: match[2]! } : null;
}
