// Message markers (ARCHITECTURE.md): remark-directive syntax stored inside message content. The server writes
// them with these builders; the SPA's renderer parses the same syntax with remark-directive.


export type ErrorMarkerType = 'llm' | 'max-tokens';

/** Attribute values are quoted; a quote or newline inside would end the directive, so they are escaped away. */
function attr(value: string): string {
  return value.replace(/["\n\r]/g, (c) => (c === '"' ? '&quot;' : ' '));
}

export const imageMarker = (url: string, alt = '') => `::image{url="${attr(url)}" alt="${attr(alt)}"}`;
export const documentMarker = (url: string, name: string) => `::document{url="${attr(url)}" name="${attr(name)}"}`;
export const errorMarker = (type: ErrorMarkerType, text: string) => `:::error{type="${type}"}\n${text}\n:::`;
export const toolsMarker = (text: string, label?: string) =>
  `:::tools${label ? `{label="${attr(label)}"}` : ''}\n${text}\n:::`;

const SAFE_PROTOCOL = /^(https?|mailto)$/i;

/**
 * The URL if it is relative or http(s)/mailto, else null (no `javascript:`, `data:`, `vbscript:`...).
 * Same test as react-markdown's defaultUrlTransform with a shorter list of protocols.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const url = (value ?? '').trim();
  if (!url) return null;
  const colon = url.indexOf(':');
  const question = url.indexOf('?');
  const hash = url.indexOf('#');
  const slash = url.indexOf('/');
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (question !== -1 && colon > question) ||
    (hash !== -1 && colon > hash) ||
    SAFE_PROTOCOL.test(url.slice(0, colon))
  ) {
    return url;
  }
  return null;
}

// ------------------------------------------------------------------------------------- our own file URLs

/**
 * Where the server serves its own files (generated images, uploaded documents): under contract/api-paths.ts's
 * API_PREFIX, spelled out because shared/ imports nothing of ours (test/unit/markdown-content-safety keeps them in step).
 */
export const OWN_FILE_PATHS = ['/api/v1/files/', '/api/v1/documents/'] as const;

/** Whose files count as our own: the app's origin and the path it is served under ('/' by default). */
export interface OwnFileScope {
  /** e.g. `https://tanya.example.com`; without it only root-relative URLs can be ours. */
  origin?: string | null;
  /** The path the app (and so its API) is served under, e.g. '/' or '/tanya/'. */
  basePath?: string | null;
}

/** Stands in for the origin when it is unknown, so only root-relative URLs resolve to it. */
const NO_ORIGIN = 'http://own-files.invalid';
const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * True when an image or document marker's URL is one of this server's own file URLs: root-relative or on the
 * app's own origin, under the API's file paths. Markers pointing anywhere else must not show as an image or a
 * download card: a reply (or a prompt injection in it) could otherwise load tracking pixels or pass a stranger's
 * file off as ours. One rule for the SPA's renderer and for the server (server/services/chat/marker-safety.ts).
 *
 * The URL is resolved as a browser would (so `//evil.example`, `/\evil.example` and `/api/v1/files/../x` are
 * judged by where they really lead); path-relative URLs ("files/x.png") are refused, as they would lead
 * somewhere else on every screen.
 */
export function isOwnFileUrl(value: string | null | undefined, scope: OwnFileScope = {}): boolean {
  // The URL parser drops tabs and line breaks anywhere, so they must not hide a "//host".
  const url = (value ?? '').replace(/[\t\n\r]/g, '').trim();
  if (!url || (!url.startsWith('/') && !SCHEME.test(url))) return false;
  // Not knowing our origin, only a path on the same host can be ours.
  if (!scope.origin && (SCHEME.test(url) || /^[\\/]{2}/.test(url))) return false;
  let origin: string;
  let resolved: URL;
  try {
    origin = scope.origin ? new URL(scope.origin).origin : NO_ORIGIN;
    resolved = new URL(url, `${origin}/`);
  } catch {
    return false;
  }
  if (resolved.origin !== origin || resolved.username || resolved.password) return false;
  const base = `/${(scope.basePath ?? '/').replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  return OWN_FILE_PATHS.some((path) => resolved.pathname.startsWith(`${base}${path}`));
}
