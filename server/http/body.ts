import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies with Fastify's safe parser, except that an empty body counts as no body: clients that send
 * `Content-Type: application/json` on a body-less POST (refresh, logout) must not get a 400.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
