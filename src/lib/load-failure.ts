import { loadFailure } from '../../machines/load-failure';
import { ApiError } from '../api/api-error';

/**
 * The machines only tell the server's own sentence from a dropped connection (spec: `Failed to refresh messages.
 * ${detail}` with the server's detail, else 'Failed to fetch recent messages'); ApiError says which it was.
 */
export function asLoadFailure(error: unknown) {
  const serverDetail = error instanceof ApiError && error.status !== 0 && error.detail ? error.detail : null;
  return loadFailure(error instanceof Error ? error.message : String(error), serverDetail, error instanceof ApiError && error.status === 404);
}

/** A call whose failure reaches a machine as a load failure (the server's sentence kept, when it gave one). */
export function withServerDetail<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => Promise.reject(asLoadFailure(error)));
}
