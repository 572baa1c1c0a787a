import type { FastifyRequest } from 'fastify';

/**
 * The address the person's browser was on when it sent this request: the Origin header (browsers send it with
 * every POST), else the Referer's origin, else the address the request came to (proxied: per TRUST_PROXY).
 */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const given = request.headers.origin ?? request.headers.referer;
  if (typeof given === 'string' && given !== 'null') {
    try {
      return new URL(given).origin;
    } catch {
      // A malformed header says nothing: fall back to where the request came.
    }
  }
  return `${request.protocol}://${request.host}`;
}
