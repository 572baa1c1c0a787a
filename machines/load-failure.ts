// How a machine's load and save actors reject, apart from any machine: importing it never pulls in a machine.

/**
 * How the load actors (`loadMessages`, `loadRecent`, the follow check) reject: any error; when the server
 * answered with its own sentence, the error carries it as `serverDetail` (src/ builds it with {@link loadFailure}).
 */
export type LoadFailure = Error & { serverDetail: string | null; notFound?: boolean };

/** `notFound`: the server answered 404 (the thing asked for is not there, or not this person's). */
export function loadFailure(message: string, serverDetail: string | null, notFound = false): LoadFailure {
  return Object.assign(new Error(message), { serverDetail, notFound });
}

/** The load failed because the server has no such thing for this person (404), not because of the network or the server. */
export function isNotFoundFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { notFound?: unknown }).notFound === true;
}

/** The server's own sentence in a load failure, if it gave one. */
export function serverDetailOf(error: unknown): string | null {
  const detail = typeof error === 'object' && error !== null ? (error as { serverDetail?: unknown }).serverDetail : undefined;
  return typeof detail === 'string' && detail !== '' ? detail : null;
}
