import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

/** Fastify's logger options (pino's, plus `stream`). */
export type AppLoggerOptions = Exclude<NonNullable<FastifyServerOptions['logger']>, boolean> & {
  stream?: { write(msg: string): void };
};
export type AppLogger = boolean | AppLoggerOptions | FastifyBaseLogger;

/** Secrets never reach a log line, whatever a handler passes to the logger. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'password',
  'new_password',
  'password_hash',
  'access_token',
  'refresh_token',
  'token',
  '*.password',
  '*.new_password',
  '*.password_hash',
  '*.access_token',
  '*.refresh_token',
  '*.token',
  '*.authorization',
];

/** Paths whose last segment is a credential (reset and activation links, share ids are not secrets). */
const SECRET_PATH = /^(\/(?:reset-password|activate)\/)[^/?#]+/;

/** Query parameters that carry what people typed (searches, conversation titles): private, so not logged. */
const PRIVATE_QUERY = /([?&](?:query|search|title)=)[^&#]*/g;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH, '$1[redacted]').replace(PRIVATE_QUERY, '$1[redacted]');
}

export function loggerOptions(level: string, overrides: AppLoggerOptions = {}): AppLoggerOptions {
  return {
    level,
    ...overrides,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}

export function isLoggerInstance(value: AppLogger | undefined): value is FastifyBaseLogger {
  return typeof value === 'object' && value !== null && typeof (value as FastifyBaseLogger).info === 'function';
}

/**
 * One log line per request, written once it has been answered: method, address, status and time together.
 * Fastify's default also writes a line as each request arrives, a synchronous write before the handler runs (about
 * 0.15 ms of a send's time to first token in `npm run bench -- first-token`) that the completion line repeats.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const entry = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...entry, err: error }, 'request errored');
    else reply.log.info(entry, 'request completed');
  }
}
