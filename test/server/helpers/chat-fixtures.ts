import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../../../contract/api-paths';
import type { SendMessageRequest } from '../../../contract/chat';
import { login } from './fixtures';
import { collectSse, parseReplyStream, type ReplyStream } from './sse';
import { createTestApp, type TestApp, type TestAppOverrides } from './test-app';

/** Either envelope: data on success, detail on failure. */
export interface ApiBody<T> {
  status: 'success' | 'error';
  data: T;
  message?: string;
  detail?: string;
}

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  body: ApiBody<T>;
}

export interface ChatServer extends TestApp {
  /** http://127.0.0.1:port/api/v1 */
  apiUrl: string;
  /** user@demo.local */
  token: string;
  userId: string;
  /** newhire@demo.local: another user of the same organisation. */
  otherToken: string;
  api<T = unknown>(method: string, path: string, opts?: { token?: string; query?: Record<string, string | number | undefined>; body?: unknown }): Promise<ApiResult<T>>;
  /** POST /chat/messages with real fetch; the caller reads (or abandons) the stream. */
  send(body: SendMessageRequest, opts?: { token?: string; signal?: AbortSignal }): Promise<Response>;
  /** Sends and reads the whole stream, which must be a 200 text/event-stream following the protocol. */
  ask(body: SendMessageRequest, token?: string): Promise<ReplyStream>;
}

/**
 * A seeded app listening on a real port (streams need a real connection). The offline responder answers
 * without pauses unless `env` says otherwise.
 */
export async function startChatServer(overrides: TestAppOverrides = {}): Promise<ChatServer> {
  const t = await createTestApp({ ...overrides, env: { OFFLINE_TOKEN_DELAY_MS: '0', ...overrides.env } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}${API_PREFIX}`;
  const me = await login(t.app, 'user@demo.local');
  const other = await login(t.app, 'newhire@demo.local');

  const headers = (token: string, json: boolean) => ({
    authorization: `Bearer ${token}`,
    ...(json ? { 'content-type': 'application/json' } : {}),
  });

  const server: ChatServer = {
    ...t,
    apiUrl,
    token: me.access_token,
    userId: me.user.id,
    otherToken: other.access_token,
    async api(method, path, opts = {}) {
      const entries = Object.entries(opts.query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
      const query = entries.length > 0 ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
      const res = await fetch(`${apiUrl}${path}${query}`, {
        method,
        headers: headers(opts.token ?? me.access_token, opts.body !== undefined),
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as ApiBody<never> };
    },
    send(body, opts = {}) {
      return fetch(`${apiUrl}/chat/messages`, {
        method: 'POST',
        headers: headers(opts.token ?? me.access_token, true),
        body: JSON.stringify(body),
        signal: opts.signal,
      });
    },
    async ask(body, token) {
      const res = await server.send(body, { token });
      if (res.status !== 200) throw new Error(`send answered ${res.status}: ${await res.text()}`);
      if (!res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error('not an event stream');
      return parseReplyStream(await collectSse(res));
    },
  };
  return server;
}

/** Polls `check` until it returns something truthy (background work such as titles). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
