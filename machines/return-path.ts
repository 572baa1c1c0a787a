/**
 * Where a person goes back to after signing in (issue 28: a shared link opened while signed out). The login URL
 * carries it as `?redirect=/share/{id}`: anyone can write such a URL, so only a path of this app is ever followed,
 * never another site (an open redirect would let a link to our login page send people anywhere).
 */
export const RETURN_PARAM = 'redirect';

/** Paths that would only send the person round again (the sign-in screen, the landing page, logout). */
const NOT_A_DESTINATION = /^\/(?:login|logout)?(?:[/?#]|$)/;

/**
 * `raw` when it is a path of this origin worth returning to, else null: one leading slash (never `//` or `/\`,
 * which browsers read as another host), no control characters or backslashes, at most 2,000 characters.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  if (NOT_A_DESTINATION.test(raw)) return null;
  return raw;
}
