import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with one /v1/chat/completions request. */
export type FakeBehaviour =
  /** A streamed reply: one chunk per string, a finish_reason chunk, a usage chunk (unless null), [DONE]. */
  | { kind: 'reply'; chunks: string[]; finishReason?: 'stop' | 'length'; usage?: FakeUsage | null; chunkDelayMs?: number }
  /** Refuses the request with this status and an OpenAI-style error body. */
  | { kind: 'http-error'; status: number }
  /** Accepts the request and never answers (until the client gives up or the fake closes). */
  | { kind: 'hang' }
  /** Streams these chunks, then an error event in the stream, and ends without finish_reason or [DONE]. */
  | { kind: 'error-mid-stream'; chunks: string[] };

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatCompletionBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content: string }[];
  reasoning_effort?: string;
  max_tokens?: number;
  max_completion_tokens?: number;
}

export interface RecordedRequest {
  body: ChatCompletionBody;
  authorization: string | undefined;
}

/** What the fake does with one /v1/images/generations request. */
export type FakeImageBehaviour =
  /** The image in `data[0].b64_json` (gpt-image-1), with `usage` when given. */
  | { kind: 'b64'; image: Buffer; usage?: { input_tokens: number; output_tokens: number } }
  /** `data[0].url` (dall-e): the image served by this fake at that URL, or `url` as given. */
  | { kind: 'url'; image?: Buffer; contentType?: string; url?: string }
  | { kind: 'http-error'; status: number }
  /** Accepts the request and never answers (until the client gives up or the fake closes). */
  | { kind: 'hang' };

export interface ImageGenerationBody {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  response_format?: string;
}

export interface FakeOpenAi {
  /** For LLM_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Picks the behaviour per request; the default answers "Hello from the fake model." */
  respond(handler: (request: RecordedRequest) => FakeBehaviour): void;
  imageRequests: { body: ImageGenerationBody; authorization: string | undefined }[];
  /** Picks the images endpoint's behaviour; the default is an HTTP 404, as from a server without it. */
  respondImages(handler: (body: ImageGenerationBody) => FakeImageBehaviour): void;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_REPLY = ['Hello', ' from', ' the', ' fake', ' model.'];

/** Is this the title request of services/titles.ts (rather than a chat reply)? */
export function isTitleRequest(request: RecordedRequest): boolean {
  return /You name chat conversations/.test(request.body.messages[0]?.content ?? '');
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions streaming protocol
 * (chat.completion.chunk events, a usage chunk when stream_options.include_usage, data: [DONE]).
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  let handler: (request: RecordedRequest) => FakeBehaviour = () => ({ kind: 'reply', chunks: DEFAULT_FAKE_REPLY });
  let counter = 0;
  const imageRequests: FakeOpenAi['imageRequests'] = [];
  let imageHandler: ((body: ImageGenerationBody) => FakeImageBehaviour) | undefined;
  /** Images answered by URL, served at /generated/{n} like a provider's storage. */
  const served = new Map<string, { image: Buffer; contentType: string }>();

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/images/generations' && imageHandler) {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ImageGenerationBody;
        imageRequests.push({ body, authorization: req.headers.authorization });
        serveImage(imageHandler(body), res);
        return;
      }
      const stored = req.method === 'GET' ? served.get(req.url ?? '') : undefined;
      if (stored) {
        res.writeHead(200, { 'content-type': stored.contentType }).end(stored.image);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const recorded: RecordedRequest = {
        body: JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatCompletionBody,
        authorization: req.headers.authorization,
      };
      requests.push(recorded);
      void serve(handler(recorded), recorded.body, res, `chatcmpl-${++counter}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function serveImage(behaviour: FakeImageBehaviour, res: http.ServerResponse): void {
    if (behaviour.kind === 'hang') return;
    if (behaviour.kind === 'http-error') {
      res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'The fake image model failed' } }));
      return;
    }
    let item: { b64_json?: string; url?: string; revised_prompt?: string };
    let usage: object | undefined;
    if (behaviour.kind === 'b64') {
      item = { b64_json: behaviour.image.toString('base64') };
      if (behaviour.usage) usage = { ...behaviour.usage, total_tokens: behaviour.usage.input_tokens + behaviour.usage.output_tokens };
    } else {
      let url = behaviour.url;
      if (!url) {
        const path = `/generated/${++counter}.png`;
        served.set(path, { image: behaviour.image ?? Buffer.alloc(0), contentType: behaviour.contentType ?? 'image/png' });
        url = `http://127.0.0.1:${port}${path}`;
      }
      item = { url, revised_prompt: 'A revised prompt' };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created: 1_700_000_000, data: [item], ...(usage ? { usage } : {}) }));
  }

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respond(next) {
      handler = next;
    },
    imageRequests,
    respondImages(next) {
      imageHandler = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(behaviour: FakeBehaviour, body: ChatCompletionBody, res: http.ServerResponse, id: string): Promise<void> {
  if (behaviour.kind === 'hang') return;
  if (behaviour.kind === 'http-error') {
    res
      .writeHead(behaviour.status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'The fake provider failed', type: 'server_error', code: null } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices, ...extra })}\n\n`);
  const delta = (content: string) => chunk([{ index: 0, delta: { content }, finish_reason: null }]);

  // Like OpenAI: the first chunk names the role and carries no text.
  chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  for (const text of behaviour.chunks) {
    if (behaviour.kind === 'reply' && behaviour.chunkDelayMs) await new Promise((r) => setTimeout(r, behaviour.chunkDelayMs));
    if (res.destroyed) return;
    delta(text);
  }
  if (behaviour.kind === 'error-mid-stream') {
    res.end(`data: ${JSON.stringify({ error: { message: 'The fake provider broke mid-stream', type: 'server_error' } })}\n\n`);
    return;
  }
  chunk([{ index: 0, delta: {}, finish_reason: behaviour.finishReason ?? 'stop' }]);
  const usage = behaviour.usage === undefined ? { prompt_tokens: 42, completion_tokens: behaviour.chunks.length } : behaviour.usage;
  if (usage && body.stream_options?.include_usage) {
    chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  }
  res.end('data: [DONE]\n\n');
}
