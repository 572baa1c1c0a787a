import { ApiError } from '../api/api-error';
import { asLoadFailure } from './load-failure';

/**
 * A call whose failure reaches a machine as a load failure (the server's sentence kept) that also carries the HTTP
 * status (0: no answer), so the machine can tell a refusal from a failure worth trying again (machines/answer-status.ts).
 */
export function withAnswerStatus<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) =>
    Promise.reject(Object.assign(asLoadFailure(error), { status: error instanceof ApiError ? error.status : 0 })),
  );
}
