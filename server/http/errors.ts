import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorEnvelope } from '../../contract/envelope';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RateLimitedError,
  TooLargeError,
  UnauthenticatedError,
  UnavailableError,
  UnsupportedTypeError,
} from '../services/errors';

export function errorBody(detail: string, extra: { fields?: Record<string, string>; code?: string } = {}): ErrorEnvelope {
  return {
    status: 'error',
    detail,
    message: detail,
    ...(extra.fields ? { fields: extra.fields } : {}),
    ...(extra.code ? { code: extra.code } : {}),
  };
}

/** The sentence of every 5xx: what failed is in the log, not in the answer. */
export const SERVER_FAULT = 'Something went wrong on our side. Please try again.';

/** Each kind of domain error and its status code; the one place they meet HTTP. */
const STATUS_OF: ReadonlyArray<[new (...args: never[]) => DomainError, number]> = [
  [InvalidError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooLargeError, 413],
  [UnsupportedTypeError, 415],
  [RateLimitedError, 429],
  [UnavailableError, 503],
];

function statusOf(err: DomainError): number {
  return STATUS_OF.find(([kind]) => err instanceof kind)?.[1] ?? 500;
}

/** Fastify's own 4xx errors, reworded for people. */
const FASTIFY_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body must be JSON (Content-Type: application/json)',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body size did not match Content-Length',
};

/** `/items/0/name` (a validation issue's pointer) -> `items.0.name`; the whole input -> `_`. */
function fieldKey(instancePath: string): string {
  return instancePath.split('/').filter(Boolean).join('.') || '_';
}

/**
 * The app's one error handler: domain errors to their status and the envelope, request validation (the contract's
 * schemas) to 400 with the first issue's sentence as `detail` and `fields` = path -> first sentence for that path.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | DomainError, request, reply) => {
    if (err instanceof DomainError) {
      if (err instanceof RateLimitedError) reply.header('Retry-After', String(err.retryAfterSeconds));
      const fields = err instanceof InvalidError ? err.fields : undefined;
      return reply.code(statusOf(err)).send(errorBody(err.detail, { fields, code: err.code }));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) fields[fieldKey(issue.instancePath)] ??= issue.message ?? 'Invalid request';
      return reply.code(400).send(errorBody(err.validation[0].message ?? 'Invalid request', { fields }));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail = FASTIFY_CLIENT_ERRORS[err.code] ?? (err.validation ? 'Invalid request' : err.message);
      return reply.code(status).send(errorBody(detail));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(errorBody(SERVER_FAULT));
  });
}
