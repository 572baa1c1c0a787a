/**
 * Whether asking again can help after a failed call (issue 28: a 'Try again' is offered only where it may work).
 * src/ attaches the HTTP status to the error a load or action actor rejects with (src/lib/answer-status.ts);
 * 0 or none means the server gave no answer.
 */
export function answerStatusOf(error: unknown): number {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : 0;
}

/**
 * True for no answer (network), a timeout, too many requests and the server's own failures (5xx): the same call
 * may work later. False for the server's considered refusals (400, 403, 404, ...): asking again gets the same.
 */
export function retryCanHelp(error: unknown): boolean {
  const status = answerStatusOf(error);
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
