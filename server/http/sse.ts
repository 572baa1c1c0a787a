import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/** A comment line now and then keeps proxies from closing a stream that waits for a slow first token. */
const KEEP_ALIVE_MS = 15_000;

export interface EventStream {
  /** One event: `data` is JSON-encoded (a string becomes a quoted JSON string), so it never spans lines. */
  send(data: unknown, event?: string): void;
  end(): void;
  /** Called once when the client goes away or the stream ends. */
  onClose(listener: () => void): void;
}

/**
 * Takes the response over from Fastify and opens a text/event-stream on it. Headers already set on the
 * reply (the security headers) are kept.
 */
export function openEventStream(reply: FastifyReply): EventStream {
  reply.hijack();
  const res = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // nginx would otherwise buffer the stream and deliver it in one piece at the end.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();

  const write = (frame: string) => {
    if (!res.writableEnded && !res.destroyed) res.write(frame);
  };
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  res.once('close', () => clearInterval(keepAlive));

  return {
    send(data, event) {
      write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearInterval(keepAlive);
      if (!res.writableEnded) res.end();
    },
    onClose(listener) {
      res.once('close', listener);
    },
  };
}
