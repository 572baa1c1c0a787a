import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MALFORMED_RECORD, StreamFailure, streamMessage, type StreamHandlers } from '../../src/api/chat-stream';

// The library touches two browser globals even with openWhenHidden (window timers, document listeners);
// Node has neither, so the test gives it the smallest stand-ins. Fetch, streams and HTTP are real.
const g = globalThis as unknown as { window?: unknown; document?: unknown };
g.window ??= globalThis;
g.document ??= Object.assign(new EventTarget(), { hidden: false });

type Script = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let server: http.Server;
let base = '';
let script: Script;
const requests: Array<{ auth?: string; body: string; url: string }> = [];

const sse = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ auth: req.headers.authorization, body, url: req.url ?? '' });
      script(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests.length = 0;
});

function recorder() {
  const events: unknown[] = [];
  const handlers: StreamHandlers = {
    onControl: (c) => events.push(['control', c]),
    onStatus: (st) => events.push(['status', st]),
    onChunk: (t) => events.push(['chunk', t]),
    onError: (e) => events.push(['error', e]),
    onDone: (d) => events.push(['done', d]),
  };
  return { events, handlers };
}

const body = { conversation_id: null, message: 'Hello' };
const control = { conversation_id: 'c1', message_id: 'm2', user_message_id: 'm1' };
const done = { message_id: 'm2', usage: { prompt_tokens: 3, completion_tokens: 2 }, stopped: false };

describe('streamMessage', () => {
  it('reads the control record, JSON-encoded deltas (newlines kept) and done, in order', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`data: ${JSON.stringify('Hi')}\n\n`);
      res.write(`data: ${JSON.stringify(' there\n\n- a')}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    const { events, handlers } = recorder();
    await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok', refresh: async () => true });
    expect(events).toEqual([['control', control], ['chunk', 'Hi'], ['chunk', ' there\n\n- a'], ['done', done]]);
    expect(requests[0]).toMatchObject({ auth: 'Bearer tok', body: JSON.stringify(body) });
  });

  it('passes on what the server is doing before the text; a status it does not know, or before the control record, is passed over', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`event: status\ndata: ${JSON.stringify({ activity: 'searching_web' })}\n\n`);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`event: status\ndata: ${JSON.stringify({ activity: 'searching_web' })}\n\n`);
      res.write(`event: status\ndata: ${JSON.stringify({ activity: 'reading_minds' })}\n\n`);
      res.write('event: status\ndata: {not json\n\n');
      res.write(`data: ${JSON.stringify('Found it')}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    const { events, handlers } = recorder();
    await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' });
    expect(events).toEqual([['control', control], ['status', { activity: 'searching_web' }], ['chunk', 'Found it'], ['done', done]]);
  });

  it('passes an error event on and still finishes with done', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`event: error\ndata: ${JSON.stringify({ type: 'llm', message: 'The model failed' })}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    const { events, handlers } = recorder();
    await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' });
    expect(events).toEqual([['control', control], ['error', { type: 'llm', message: 'The model failed' }], ['done', done]]);
  });

  it('a refused request is a request failure carrying the server detail, and is not retried', async () => {
    script = (_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', detail: 'Busy', message: 'Busy' }));
    };
    const { handlers } = recorder();
    const error = await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamFailure);
    expect(error).toMatchObject({ phase: 'request', detail: 'Busy', status: 409 });
    expect(requests).toHaveLength(1);
  });

  it('a connection cut in the middle is a stream failure, never a second POST', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`data: ${JSON.stringify('partial')}\n\n`);
      setTimeout(() => res.destroy(), 20);
    };
    const { events, handlers } = recorder();
    const error = await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ phase: 'stream' });
    expect(events).toEqual([['control', control], ['chunk', 'partial']]);
    expect(requests).toHaveLength(1);
  });

  it('on 401 refreshes once and repeats the request with the new token', async () => {
    let token = 'old';
    script = (req, res) => {
      if (req.headers.authorization !== 'Bearer new') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', detail: 'Session expired', message: 'Session expired' }));
        return;
      }
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    let refreshes = 0;
    const { events, handlers } = recorder();
    await streamMessage(body, handlers, {
      signal: new AbortController().signal,
      baseURL: base,
      getToken: () => token,
      refresh: async () => {
        refreshes += 1;
        token = 'new';
        return true;
      },
    });
    expect(refreshes).toBe(1);
    expect(requests.map((r) => r.auth)).toEqual(['Bearer old', 'Bearer new']);
    expect(events.at(-1)).toEqual(['done', done]);
  });

  it('an aborted send resolves quietly', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
    };
    const controller = new AbortController();
    const { events, handlers } = recorder();
    const run = streamMessage(body, { ...handlers, onControl: (c) => { handlers.onControl(c); controller.abort(); } }, { signal: controller.signal, baseURL: base, getToken: () => 'tok' });
    await expect(run).resolves.toBeUndefined();
    expect(events).toEqual([['control', control]]);
  });

  it('carries the t timestamp query like every other call, a new one on the repeat after a 401', async () => {
    let calls = 0;
    script = (_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', detail: 'Session expired', message: 'Session expired' }));
        return;
      }
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    let clock = 1_700_000_000_000;
    const { handlers } = recorder();
    await streamMessage(body, handlers, {
      signal: new AbortController().signal,
      baseURL: base,
      getToken: () => 'tok',
      refresh: async () => true,
      now: () => (clock += 1500),
    });
    expect(requests.map((r) => r.url)).toEqual(['/api/v1/chat/messages?t=1700000001500', '/api/v1/chat/messages?t=1700000003000']);

    // Without a clock given, it is the time of the request.
    const before = Date.now();
    await streamMessage(body, recorder().handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' });
    const t = Number(new URL(requests.at(-1)!.url, base).searchParams.get('t'));
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it('a malformed control record is a request failure, not a crash, and nothing is handed on', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify({ conversation_id: 'c1', message_id: 42 })}\n\n`);
      res.write(`data: ${JSON.stringify('Hi')}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    const { events, handlers } = recorder();
    const error = await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamFailure);
    expect(error).toMatchObject({ phase: 'request', detail: MALFORMED_RECORD, status: 0 });
    expect(events).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('a malformed done record is a stream failure after what streamed', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`data: ${JSON.stringify('Hi')}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify({ message_id: 'm2', usage: { prompt_tokens: 'many' } })}\n\n`);
    };
    const { events, handlers } = recorder();
    const error = await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamFailure);
    expect(error).toMatchObject({ phase: 'stream', detail: MALFORMED_RECORD });
    expect(events).toEqual([['control', control], ['chunk', 'Hi']]);
  });

  it('a text delta that is not a JSON string, or an error record of another shape, is a stream failure', async () => {
    for (const bad of [`data: {"text":"Hi"}\n\n`, `data: Hi there\n\n`, `event: error\ndata: ${JSON.stringify({ type: 'oops', message: 'x' })}\n\n`]) {
      script = (_req, res) => {
        sse(res);
        res.write(`data: ${JSON.stringify(control)}\n\n`);
        res.write(bad);
        res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
      };
      const { events, handlers } = recorder();
      const error = await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' }).catch((e: unknown) => e);
      expect(error, bad).toMatchObject({ phase: 'stream', detail: MALFORMED_RECORD });
      expect(events).toEqual([['control', control]]);
    }
  });

  it('keep-alive comments and unknown event names are skipped', async () => {
    script = (_req, res) => {
      sse(res);
      res.write(': keep-alive\n\n');
      res.write(`data: ${JSON.stringify(control)}\n\n`);
      res.write(`event: progress\ndata: {"step":1}\n\n`);
      res.write(': keep-alive\n\n');
      res.write(`data: ${JSON.stringify('Hi')}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
    };
    const { events, handlers } = recorder();
    await streamMessage(body, handlers, { signal: new AbortController().signal, baseURL: base, getToken: () => 'tok' });
    expect(events).toEqual([['control', control], ['chunk', 'Hi'], ['done', done]]);
  });
});
