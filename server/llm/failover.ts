import type { FastifyBaseLogger } from 'fastify';
import { describeError, type ChatChunk, type ChatModel, type ChatRequest } from './types';

export interface FailoverOptions {
  /** The primary must produce its first chunk within this time, else the backup answers. */
  firstTokenTimeoutMs: number;
  log: FastifyBaseLogger;
}

class FirstTokenTimeout extends Error {
  override name = 'FirstTokenTimeout';
}

/**
 * The primary answers; the backup takes over when the primary throws or stays silent past the first-token
 * timeout. Only before the first chunk: once text has reached the user, switching models would splice two
 * different answers together, so a later failure is the caller's to report.
 */
export function createFailoverModel(primary: ChatModel, backup: ChatModel, opts: FailoverOptions): ChatModel {
  return {
    source: primary.source,
    offline: false,
    async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
      const attempt = new AbortController();
      const forwardAbort = () => attempt.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', forwardAbort, { once: true });
      const chunks = primary.stream({ ...request, signal: attempt.signal })[Symbol.asyncIterator]();
      let first: IteratorResult<ChatChunk>;
      try {
        first = await withTimeout(chunks.next(), opts.firstTokenTimeoutMs);
      } catch (err) {
        request.signal?.removeEventListener('abort', forwardAbort);
        if (request.signal?.aborted) throw err;
        attempt.abort();
        opts.log.warn(
          { err: describeError(err), primary: primary.source, backup: backup.source },
          'primary model failed before its first token; the backup answers',
        );
        yield* backup.stream(request);
        return;
      }
      let finished = first.done === true;
      try {
        if (finished) return;
        yield first.value;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
        finished = true;
      } finally {
        request.signal?.removeEventListener('abort', forwardAbort);
        // The consumer stopped early: close the primary's stream too.
        if (!finished) await chunks.return?.();
      }
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FirstTokenTimeout(`no first token within ${ms} ms`)), ms);
  });
  // The losing primary call rejects once aborted; nobody awaits it any more.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
