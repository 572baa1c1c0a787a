// How a stored file goes out over HTTP: its Content-Type and Content-Disposition. Kept apart from the routes so
// every route serving a file (a document's download, GET /files/{key}) says the same.

import { isInlineImage } from './upload-check';

/** Text is stored as UTF-8 (the upload check made sure), so it is served as such. */
export function contentTypeOf(mime: string): string {
  return mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime;
}

/** RFC 5987 ext-value: UTF-8, percent-encoded; encodeURIComponent leaves ' ( ) * which attr-char does not allow. */
function extValue(text: string): string {
  return `UTF-8''${encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * `attachment` or `inline`, with the name twice: a plain ASCII fallback (quotes, backslashes and anything outside
 * printable ASCII replaced) for old clients, and `filename*` with the real name (RFC 6266 / 5987).
 */
export function contentDisposition(disposition: 'attachment' | 'inline', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${disposition}; filename="${fallback}"; filename*=${extValue(filename)}`;
}

/** GET /files/{key}: images show in the page; anything else only ever downloads. */
export function dispositionForKey(mime: string): 'attachment' | 'inline' {
  return isInlineImage(mime) ? 'inline' : 'attachment';
}
