import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/api-error';

// A real HTTP server: it records what it received and answers per path.
interface Seen { method: string; url: URL; headers: http.IncomingHttpHeaders }
let server: http.Server;
let base = '';
const seen: Seen[] = [];
let validToken = 'fresh';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ method: req.method ?? '', url, headers: req.headers });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v1/slow') {
      setTimeout(() => json(200, { status: 'success', data: { n: url.searchParams.get('n') } }), 150);
      return;
    }
    if (url.pathname === '/api/v1/cut') return void req.socket.destroy();
    if (url.pathname === '/api/v1/down') return json(503, { status: 'error', detail: 'Down for maintenance', message: 'Down for maintenance' });
    if (url.pathname === '/api/v1/failed-body') return json(200, { status: 'error', message: 'Quota reached' });
    if (url.pathname === '/api/v1/bad') return json(400, { status: 'error', detail: 'Email is required', message: 'Email is required', fields: { email: 'Email is required' } });
    if (req.headers.authorization !== `Bearer ${validToken}`) return json(401, { status: 'error', detail: 'Session expired', message: 'Session expired' });
    json(200, { status: 'success', data: { path: url.pathname } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  validToken = 'fresh';
});

function makeClient(initialToken: string | null, refreshWorks: boolean) {
  let token = initialToken;
  const calls = { refresh: 0, expired: 0 };
  const client = createApiClient({
    baseURL: base,
    getToken: () => token,
    retryDelayMs: 20,
    refresh: async () => {
      calls.refresh++;
      await new Promise((r) => setTimeout(r, 30));
      if (!refreshWorks) return false;
      token = 'fresh';
      return true;
    },
    onSessionExpired: () => {
      calls.expired++;
    },
  });
  return { client, calls };
}

describe('API client', () => {
  it('sends the bearer token, no-store and a t timestamp', async () => {
    const { client } = makeClient('fresh', true);
    const res = await client.get<{ path: string }>('/users/me');
    expect(res.data.path).toBe('/api/v1/users/me');
    expect(seen[0].headers.authorization).toBe('Bearer fresh');
    expect(seen[0].headers['cache-control']).toBe('no-store');
    expect(Number(seen[0].url.searchParams.get('t'))).toBeGreaterThan(Date.now() - 5000);
  });

  it('makes one refresh for many concurrent 401s and retries each call once', async () => {
    const { client, calls } = makeClient('stale', true);
    const results = await Promise.all(['/a', '/b', '/c', '/d', '/e'].map((p) => client.get<{ path: string }>(p)));
    expect(results.map((r) => r.data.path)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c', '/api/v1/d', '/api/v1/e']);
    expect(calls.refresh).toBe(1);
    // 5 first attempts with the stale token, then exactly one retry each with the fresh one.
    expect(seen.filter((s) => s.headers.authorization === 'Bearer stale')).toHaveLength(5);
    expect(seen.filter((s) => s.headers.authorization === 'Bearer fresh')).toHaveLength(5);
  });

  it('retries only once: a second 401 after the refresh is returned to the caller', async () => {
    validToken = 'never';
    const { client, calls } = makeClient('stale', true);
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401, detail: 'Session expired' });
    expect(calls.refresh).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('expires the session once when the refresh fails', async () => {
    const { client, calls } = makeClient('stale', false);
    const outcomes = await Promise.allSettled([client.get('/a'), client.get('/b'), client.get('/c')]);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(calls).toEqual({ refresh: 1, expired: 1 });
    expect(seen).toHaveLength(3);
  });

  it('does not refresh for an anonymous call or a call that opts out', async () => {
    const { client, calls } = makeClient(null, true);
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    const withToken = makeClient('stale', true);
    await expect(withToken.client.post('/auth/login', {}, { noRefresh: true })).rejects.toMatchObject({ status: 401 });
    expect(calls.refresh + withToken.calls.refresh).toBe(0);
  });

  it('a new request to the same URL cancels the pending one', async () => {
    const { client } = makeClient('fresh', true);
    const first = client.get('/slow', { query: { n: 1 } });
    const second = client.get('/slow', { query: { n: 1 } });
    const other = client.get('/slow', { query: { n: 2 } });
    await expect(first).rejects.toMatchObject({ aborted: true });
    await expect(second).resolves.toMatchObject({ data: { n: '1' } });
    await expect(other).resolves.toMatchObject({ data: { n: '2' } });
  });

  it('concurrent calls may opt out of cancellation', async () => {
    const { client } = makeClient('fresh', true);
    const all = await Promise.all([1, 2].map(() => client.get<{ n: string }>('/slow', { query: { n: 7 }, concurrent: true })));
    expect(all.map((r) => r.data.n)).toEqual(['7', '7']);
  });

  it('turns error bodies into ApiError with the server detail and fields', async () => {
    const { client } = makeClient('fresh', true);
    const err = await client.post('/bad', {}).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, detail: 'Email is required', fields: { email: 'Email is required' } });
    await expect(client.get('/failed-body')).rejects.toMatchObject({ detail: 'Quota reached' });
  });

  it('downloads answer the Response unread, and a refused download says the server\'s sentence', async () => {
    const { client } = makeClient('fresh', true);
    const ok = await client.download('/file');
    expect(ok).toBeInstanceOf(Response);
    expect(ok.bodyUsed).toBe(false);
    expect(await ok.json()).toEqual({ status: 'success', data: { path: '/api/v1/file' } });
    await expect(client.download('/bad')).rejects.toMatchObject({ status: 400, detail: 'Email is required' });
  });

  it('sends a GET once when refused with a 5xx or cut off (no retry of its own)', async () => {
    const { client } = makeClient('fresh', true);
    await expect(client.get('/down')).rejects.toMatchObject({ status: 503, detail: 'Down for maintenance' });
    await expect(client.get('/cut')).rejects.toMatchObject({ status: 0, detail: 'Network Error' });
    expect(seen.map((s) => s.url.pathname)).toEqual(['/api/v1/down', '/api/v1/cut']);
  });

  it('reports an unreachable server as a Network Error', async () => {
    const client = createApiClient({ baseURL: 'http://127.0.0.1:1/api/v1', getToken: () => null, refresh: async () => false });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 0, detail: 'Network Error' });
  });
});
