import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../../server/llm/openai-compatible';
import { createEmbedder } from '../../server/services/documents/embeddings';
import { transcribeAudio } from '../../server/services/documents/transcription';
import { collectReply, LlmCallError, type ChatChunk, type ChatModel } from '../../server/llm/types';
import { startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';

/**
 * A provider answering each request with the next of `answers` (then the last one again); the requests whose
 * number (from 1) `drop` names get their connection closed instead, unanswered.
 */
async function startScripted(answers: Array<(res: http.ServerResponse) => void>, drop: (n: number) => boolean = () => false) {
  let requests = 0;
  let served = 0;
  let connections = 0;
  const server = http.createServer((req, res) => {
    if (drop(++requests)) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => answers[Math.min(served++, answers.length - 1)](res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    served: () => served,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A provider that takes each request and then says nothing more (`partial`: after one chunk of text). `arrived`
 * resolves when the first request's body is read, `closed` when the client closes that connection.
 */
async function startSilent(partial: boolean) {
  let requests = 0;
  let headers: http.IncomingHttpHeaders = {};
  let bodyLength = 0;
  let arrive!: () => void;
  let close!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const closed = new Promise<void>((resolve) => (close = resolve));
  const server = http.createServer((req, res) => {
    requests++;
    headers = req.headers;
    req.socket.once('close', close);
    req.on('data', (chunk: Buffer) => (bodyLength += chunk.length));
    req.on('end', () => {
      arrive();
      if (!partial) return;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Partial' }, finish_reason: null }] })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    arrived,
    closed,
    requests: () => requests,
    headers: () => headers,
    bodyLength: () => bodyLength,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type SilentProvider = Awaited<ReturnType<typeof startSilent>>;

/** Runs `test` with a silent provider (see startSilent) and a client of it (API key "k"), then closes the provider. */
async function withSilentProvider(partial: boolean, test: (p: SilentProvider, model: ChatModel) => Promise<void>) {
  const p = await startSilent(partial);
  try {
    await test(p, createOpenAiCompatibleModel({ baseUrl: p.baseUrl, model: 'm', apiKey: 'k' }, { reasoning: 'auto' }));
  } finally {
    await p.close();
  }
}

const streamOf = (...texts: string[]) => (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const text of texts) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\r\n\r\n`);
  res.end('data: [DONE]\r\n\r\n');
};
const refuse = (status: number, headers: http.OutgoingHttpHeaders = {}) => (res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{"error":{"message":"no"}}');
};
const question = { messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('the OpenAI-compatible client', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());
  afterEach(() => fake.respond(() => ({ kind: 'reply', chunks: ['Hello'] })));

  it('streams deltas and finishes with the usage, with the key as bearer token', async () => {
    const model = createOpenAiCompatibleModel({ baseUrl: `${fake.baseUrl}/`, model: 'm', apiKey: 'k' }, { reasoning: 'auto' });
    fake.respond(() => ({ kind: 'reply', chunks: ['One', ' two'], usage: { prompt_tokens: 7, completion_tokens: 2 } }));
    const reply = await collectReply(model, question);
    expect(reply.text).toBe('One two');
    expect(reply.finish).toMatchObject({ finishReason: 'stop', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    expect(fake.requests.at(-1)?.authorization).toBe('Bearer k');
  });

  it('keeps its connection alive for the next call', async () => {
    const p = await startScripted([streamOf('Hello')]);
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: p.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
      for (let i = 0; i < 3; i++) {
        // undici puts a connection back in its pool a tick after the answer's last byte; replies never follow
        // each other closer than that.
        await new Promise((r) => setTimeout(r, 1));
        expect((await collectReply(model, question)).text).toBe('Hello');
      }
      expect(p.served()).toBe(3);
      expect(p.connections()).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('retries a refused request once (after Retry-After-Ms), then reports the status', async () => {
    const p = await startScripted([refuse(503, { 'retry-after-ms': '10' }), streamOf('Second', ' try')]);
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: p.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
      expect((await collectReply(model, question)).text).toBe('Second try');
      expect(p.served()).toBe(2);
    } finally {
      await p.close();
    }
    const down = await startScripted([refuse(500, { 'retry-after-ms': '5' })]);
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: down.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
      const err = await collectReply(model, question).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmCallError);
      expect(err).toMatchObject({ status: 500, message: `HTTP 500 from ${new URL(down.baseUrl).host}` });
      expect(down.served()).toBe(2);
    } finally {
      await down.close();
    }
  });

  it('does not retry a request the provider will refuse again (400, 401)', async () => {
    const p = await startScripted([refuse(401)]);
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: p.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
      await expect(collectReply(model, question)).rejects.toMatchObject({ status: 401 });
      expect(p.served()).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('reports an error event inside the stream as a failed call', async () => {
    fake.respond(() => ({ kind: 'error-mid-stream', chunks: ['Half'] }));
    const model = createOpenAiCompatibleModel({ baseUrl: fake.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
    const seen: ChatChunk[] = [];
    const err = await (async () => {
      for await (const chunk of model.stream(question)) seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: 'delta', text: 'Half' }]);
    expect(err).toBeInstanceOf(LlmCallError);
  });

  it('throws the abort itself (not a provider failure) when the caller aborts, and closes the connection', async () => {
    fake.respond(() => ({ kind: 'reply', chunks: Array.from({ length: 50 }, (_, i) => ` w${i}`), chunkDelayMs: 20 }));
    const model = createOpenAiCompatibleModel({ baseUrl: fake.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
    const controller = new AbortController();
    const reason = new Error('closing');
    const err = await (async () => {
      for await (const chunk of model.stream({ ...question, signal: controller.signal })) {
        if (chunk.type === 'delta') controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(err).toBe(reason);
  });

  it('ends a call aborted while the provider is silent at once, and closes its connection', () =>
    withSilentProvider(false, async (p, model) => {
      const controller = new AbortController();
      const reason = new Error('stopped by the user');
      const reading = model.stream({ ...question, signal: controller.signal })[Symbol.asyncIterator]().next();
      await p.arrived;
      controller.abort(reason);
      // Without the abort reaching the request, this waits for the provider's answer (never) or the 10-minute timeout.
      await expect(reading).rejects.toBe(reason);
      await p.closed;
    }));

  it('ends a call aborted between two chunks of its answer at once, and closes its connection', () =>
    withSilentProvider(true, async (p, model) => {
      const controller = new AbortController();
      const reason = new Error('stopped by the user');
      const chunks = model.stream({ ...question, signal: controller.signal })[Symbol.asyncIterator]();
      expect(await chunks.next()).toEqual({ done: false, value: { type: 'delta', text: 'Partial' } });
      const waiting = chunks.next();
      setTimeout(() => controller.abort(reason), 20);
      await expect(waiting).rejects.toBe(reason);
      await p.closed;
    }));

  it('sends nothing for a call whose signal is already aborted', () =>
    withSilentProvider(false, async (p, model) => {
      const reason = new Error('closing');
      await expect(collectReply(model, { ...question, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      await new Promise((r) => setTimeout(r, 50));
      expect(p.requests()).toBe(0);
    }));

  it('names the host and the body length of each request', () =>
    withSilentProvider(true, async (p, model) => {
      const controller = new AbortController();
      const chunks = model.stream({ ...question, signal: controller.signal })[Symbol.asyncIterator]();
      await chunks.next();
      controller.abort();
      await chunks.next().catch(() => undefined);
      expect(p.headers()).toMatchObject({
        host: new URL(p.baseUrl).host,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer k',
        'content-length': String(p.bodyLength()),
      });
      expect(p.headers()['transfer-encoding']).toBeUndefined();
    }));

  it('sends the request again at once when a kept-alive connection turns out closed', async () => {
    // The second request finds its reused connection closed by the provider.
    const p = await startScripted([streamOf('First'), streamOf('Again')], (n) => n === 2);
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: p.baseUrl, model: 'm', apiKey: undefined }, { reasoning: 'auto' });
      expect((await collectReply(model, question)).text).toBe('First');
      const started = performance.now();
      expect((await collectReply(model, question)).text).toBe('Again');
      // Without the retry pause (half a second) of a refused request.
      expect(performance.now() - started).toBeLessThan(400);
      expect(p.connections()).toBe(2);
    } finally {
      await p.close();
    }
  });
});

/**
 * A forward proxy as a company runs one: CONNECT tunnels (how HTTPS goes through it; `refuseConnect` answers them
 * 502 without dialling) and absolute-form requests (plain HTTP), each counted.
 */
async function startProxy({ refuseConnect = false } = {}) {
  const connects: string[] = [];
  const requests: string[] = [];
  // Tunnels leave the HTTP server's bookkeeping: closed here, or close() would wait for the client to let go.
  const tunnels = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    tunnels.add(socket);
    if (refuseConnect) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      tunnels.add(upstream);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    requests,
    close: () => {
      for (const socket of tunnels) socket.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;

describe('a corporate proxy from the environment', () => {
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of PROXY_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  const setProxy = (variables: Partial<Record<(typeof PROXY_VARIABLES)[number], string>>) => {
    for (const name of PROXY_VARIABLES) delete process.env[name];
    Object.assign(process.env, variables);
  };

  it('carries a reply through HTTP_PROXY, and HTTPS through HTTPS_PROXY as a CONNECT tunnel', async () => {
    const provider = await startScripted([streamOf('Through', ' the proxy')]);
    const proxy = await startProxy();
    try {
      setProxy({ HTTP_PROXY: proxy.url });
      const model = createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'm', apiKey: 'k' }, { reasoning: 'auto' });
      expect((await collectReply(model, question)).text).toBe('Through the proxy');
      // undici's ProxyAgent tunnels plain HTTP as well: one CONNECT, kept for the next call.
      expect(proxy.connects).toEqual([new URL(provider.baseUrl).host]);
      expect(provider.served()).toBe(1);
    } finally {
      await proxy.close();
      await provider.close();
    }

    // An HTTPS provider the proxy refuses to reach: the tunnel asked for names it, and the call fails as a provider failure.
    const refusing = await startProxy({ refuseConnect: true });
    try {
      setProxy({ https_proxy: refusing.url });
      const model = createOpenAiCompatibleModel({ baseUrl: 'https://llm.example.test/v1', model: 'm', apiKey: 'k' }, { reasoning: 'auto' });
      await expect(collectReply(model, question)).rejects.toBeInstanceOf(LlmCallError);
      expect(refusing.connects[0]).toBe('llm.example.test:443');
      expect(refusing.requests).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('carries embeddings and transcriptions through it too', async () => {
    const provider = await startScripted([
      (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: [3, 4] }] })),
      (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'Minutes of the meeting' })),
    ]);
    const proxy = await startProxy();
    try {
      setProxy({ http_proxy: proxy.url });
      const endpoint = { baseUrl: provider.baseUrl, model: 'e', apiKey: undefined };
      expect(await createEmbedder(endpoint).embed(['budget'])).toEqual([[0.6, 0.8]]);
      const audio = { bytes: Buffer.from('ID3 not really audio'), filename: 'minutes.mp3', mime: 'audio/mpeg' };
      expect(await transcribeAudio(endpoint, audio)).toBe('Minutes of the meeting');
      expect(provider.served()).toBe(2);
      expect(proxy.connects.length).toBeGreaterThanOrEqual(1);
      expect(proxy.connects.every((target) => target === new URL(provider.baseUrl).host)).toBe(true);
    } finally {
      await proxy.close();
      await provider.close();
    }
  });

  it('goes straight to a host NO_PROXY names', async () => {
    const provider = await startScripted([streamOf('Direct')]);
    const proxy = await startProxy();
    try {
      setProxy({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
      const model = createOpenAiCompatibleModel({ baseUrl: provider.baseUrl, model: 'm', apiKey: 'k' }, { reasoning: 'auto' });
      expect((await collectReply(model, question)).text).toBe('Direct');
      expect([...proxy.connects, ...proxy.requests]).toEqual([]);
    } finally {
      await proxy.close();
      await provider.close();
    }
  });
});
