import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { errorBody, SERVER_FAULT } from './errors';
import { isApiPath } from './spa';

/**
 * The longest request URL served. Real ones are far shorter (a 200-character title is under 2 kB percent-encoded);
 * Node's parser refuses anything past its 16 kB header limit before Fastify sees it, so this answers 414 in between.
 */
export const MAX_URL_LENGTH = 8 * 1024;

const URL_TOO_LONG = 'The address (URL) of the request is too long';
const HEADERS_TOO_LARGE = 'The request headers are too large';
const BAD_URL = 'The address (URL) of the request is not valid';
const UNREADABLE_REQUEST = 'The request could not be read';
const REQUEST_TIMEOUT = 'The request took too long to arrive';

const NO_STORE = 'no-store';

/**
 * Fastify options for the errors raised before any route or hook runs (a URL that does not decode, a request Node's
 * parser refuses): they answer with the same envelope as every other error, and are never cached.
 */
export const routerErrorOptions = {
  frameworkErrors: answerFrameworkError,
  clientErrorHandler(error: Error, socket: Socket) {
    const { code, rawPacket } = error as ClientError;
    if (code === 'ECONNRESET' || socket.destroyed) return;
    const [status, detail] = clientErrorAnswer(code, rawPacket);
    if (socket.writable) {
      const body = JSON.stringify(errorBody(detail));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: ${NO_STORE}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    // Once the answer is flushed: the parser gave up on this connection, so it cannot carry another request.
    socket.destroySoon();
  },
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;

/** The router's refusals that are the client's: the status and the sentence of each. */
const CLIENT_ROUTER_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, BAD_URL],
  // A path segment longer than the router keeps (maxParamLength, set to the URL limit): the URL is too long.
  FST_ERR_MAX_PARAM_LENGTH: [414, URL_TOO_LONG],
};

/**
 * A URL that does not decode or is too long is the client's; anything else Fastify reports here is ours, answered
 * 500 and logged with its stack like every other fault.
 */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = CLIENT_ROUTER_ERRORS[error.code];
  if (!known) request.log.error({ err: error }, 'request failed before routing');
  const [status, detail] = known ?? [500, SERVER_FAULT];
  void reply
    .code(status)
    .header('cache-control', NO_STORE)
    .header('x-content-type-options', 'nosniff')
    .type('application/json; charset=utf-8')
    .send(errorBody(detail));
}

/** Node's parser errors carry the code and the bytes it choked on. */
interface ClientError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

function clientErrorAnswer(code: string | undefined, packet: Buffer | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return requestLineTooLong(packet) ? [414, URL_TOO_LONG] : [431, HEADERS_TOO_LARGE];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, REQUEST_TIMEOUT];
  return [400, UNREADABLE_REQUEST];
}

/**
 * Node reports one overflow for the request line and the headers together; the packet tells them apart when it is
 * the start of the request (`GET /...`) and its first line is itself over the URL limit or not even finished.
 */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ \S/.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const end = packet.indexOf('\r\n');
  return end === -1 || end > MAX_URL_LENGTH;
}

/**
 * Rules for every request: a URL over the limit answers 414 (before authentication or routing), and every API
 * answer, success or error, 404 included, is `Cache-Control: no-store` unless its route says otherwise.
 */
export function installRequestRules(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.length > MAX_URL_LENGTH) {
      return reply.code(414).header('cache-control', NO_STORE).send(errorBody(URL_TOO_LONG));
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control') && isApiPath(request.url)) reply.header('cache-control', NO_STORE);
    return payload;
  });
}
