import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorEnvelope } from '../../contract/envelope';

/** An error whose `detail` is safe to show to the person using the app. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly extra: { fields?: Record<string, string>; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, fields?: Record<string, string>) => new HttpError(400, detail, { fields });
export const unauthorized = (detail = 'Not authenticated') => new HttpError(401, detail);
export const forbidden = (detail = 'You do not have permission to do this', code?: string) => new HttpError(403, detail, { code });
export const notFound = (detail = 'Not found') => new HttpError(404, detail);

export function errorBody(detail: string, extra: HttpError['extra'] = {}): ErrorEnvelope & { code?: string } {
  return {
    status: 'error',
    detail,
    message: detail,
    ...(extra.fields ? { fields: extra.fields } : {}),
    ...(extra.code ? { code: extra.code } : {}),
  };
}

/** Fastify's own 4xx errors, reworded for people. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported media type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body size did not match Content-Length',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.extra.headers) reply.headers(err.extra.headers);
      return reply.code(err.statusCode).send(errorBody(err.detail, err.extra));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = FASTIFY_CLIENT_ERRORS[err.code] ?? (err.validation ? 'Invalid request' : err.message);
      return reply.code(status).send(errorBody(detail));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
  });
}
