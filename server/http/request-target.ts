import type { RawRequestDefaultExpression } from 'fastify';

/** `scheme://authority` at the start of an absolute-form request target. */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * The origin form of a request target: `GET http://host/api/v1/x?y HTTP/1.1` (the absolute form, which HTTP/1.1
 * servers must accept and proxies send) becomes `/api/v1/x?y`. Routing, the API's rules (JSON 404, no-store) and
 * the SPA all read the path, so every form of the request line is served alike. Any other target is left as it is.
 */
export function originForm(url: string): string {
  const authority = ABSOLUTE_FORM.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Fastify's `rewriteUrl` option: runs before routing, so the router and every hook see the origin form. */
export function rewriteToOriginForm(request: RawRequestDefaultExpression): string {
  return originForm(request.url ?? '/');
}
