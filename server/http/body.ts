import type { FastifyInstance } from 'fastify';

/**
 * The API takes JSON bodies only: any other content type (text/plain included, which Fastify would otherwise accept
 * and hand to the schema as a string) answers 415. JSON is read with Fastify's safe parser, except that an empty
 * body counts as no body: clients that send `Content-Type: application/json` on a body-less POST (refresh, logout)
 * must not get a 400.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
