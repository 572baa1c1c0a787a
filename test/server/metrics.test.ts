import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { API } from './helpers/fixtures';
import { readSse } from './helpers/sse';
import { createTestApp, dbKind } from './helpers/test-app';

// GET /metrics (Prometheus text) and GET /health/ready, against a real Redis where one is configured (the machine's,
// 127.0.0.1:6379; only PING is sent, so no database number is touched).

/** The value of one sample line (`name{labels} value`) of the exposition text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[4]);
  }
  return undefined;
}

describe(`metrics (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    // Replies take about a second (130 words), so a stream can be seen open.
    s = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '8' } });
  });
  afterAll(() => s?.close());

  const scrape = async () => {
    const res = await s.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('counts requests by route template and status, and describes the process', async () => {
    for (let i = 0; i < 3; i++) expect((await s.app.inject({ method: 'GET', url: `${API}/health` })).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'DELETE', url: `${API}/chat/conversations/no-such-id`, headers: { authorization: `Bearer ${s.token}` } })).statusCode).toBe(404);
    const text = await scrape();
    expect(sample(text, 'tanya_http_request_duration_seconds_count', { route: `${API}/health`, method: 'GET', status_code: '200' })).toBeGreaterThanOrEqual(3);
    // One series for every conversation id: the template, not the address.
    expect(sample(text, 'tanya_http_request_duration_seconds_count', { route: `${API}/chat/conversations/:id`, method: 'DELETE', status_code: '404' })).toBe(1);
    expect(text).not.toContain('no-such-id');
    // prom-client counts CPU from when its metrics were made (once per process, at the first scrape): 0 is a fair
    // first reading (once on PostgreSQL). The resident memory is never 0.
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it("times the model's first token and whole reply, and counts streams while they are delivered", async () => {
    const before = await scrape();
    const replies = sample(before, 'tanya_model_reply_seconds_count') ?? 0;
    const reply = await s.ask({ conversation_id: null, message: 'How are the metrics?' });
    expect(reply.done).toBeDefined();
    const after = await scrape();
    expect(sample(after, 'tanya_model_first_token_seconds_count')).toBe((sample(before, 'tanya_model_first_token_seconds_count') ?? 0) + 1);
    expect(sample(after, 'tanya_model_reply_seconds_count')).toBe(replies + 1);
    expect(sample(after, 'tanya_model_reply_seconds_sum')).toBeGreaterThan(0);
    expect(sample(after, 'tanya_open_streams')).toBe(0);

    const open = await s.send({ conversation_id: null, message: 'A reply being read' });
    const events = readSse(open.body!);
    await events.next();
    expect(sample(await scrape(), 'tanya_open_streams')).toBe(1);
    for await (const event of events) if (event.event === 'done') break;
    await expect.poll(async () => sample(await scrape(), 'tanya_open_streams')).toBe(0);
  });

  it('reports background jobs by name and status from the shared jobs table', async () => {
    await s.db
      .insertInto('jobs')
      .values({
        id: crypto.randomUUID(),
        name: 'ingest-document',
        payload: '{}',
        key: null,
        status: 'failed',
        attempts: 3,
        max_attempts: 3,
        run_after: new Date().toISOString(),
        leased_until: null,
        leased_by: null,
        last_error: 'gave up',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    expect(sample(await scrape(), 'tanya_jobs', { name: 'ingest-document', status: 'failed' })).toBeGreaterThanOrEqual(1);
  });

  it('says the database is ready and that no Redis is configured', async () => {
    const res = await s.app.inject({ method: 'GET', url: `${API}/health/ready` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ status: 'ok', database: 'ok', redis: 'not_configured' });
  });
});

describe(`metrics behind METRICS_TOKEN, and readiness with Redis (${dbKind})`, () => {
  const TOKEN = 'scrape-token-0123456789';

  it('answers only a scraper that sends the token, and never says it', async () => {
    const lines: string[] = [];
    const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN }, logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } } });
    try {
      const bare = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(bare.statusCode).toBe(401);
      expect(bare.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(errorEnvelope.parse(bare.json()).detail).toBe('Not authenticated');
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode).toBe(401);
      const good = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(good.statusCode).toBe(200);
      expect(good.body).toContain('tanya_http_request_duration_seconds');
      expect(good.body + lines.join('')).not.toContain(TOKEN);
    } finally {
      await t.close();
    }
  });

  it('is ready with a Redis that answers, and says which part is missing when it does not', async () => {
    const up = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:6379/0' } });
    try {
      const res = await up.app.inject({ method: 'GET', url: `${API}/health/ready` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    } finally {
      await up.close();
    }
    // Nothing listens on port 1: readiness answers 503 at once (liveness stays fine: the process can serve nothing
    // that needs Redis, but it is alive).
    const down = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1/0' }, logger: false });
    try {
      const started = Date.now();
      const res = await down.app.inject({ method: 'GET', url: `${API}/health/ready` });
      expect(res.statusCode, res.body).toBe(503);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Redis unreachable');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await down.app.inject({ method: 'GET', url: `${API}/health` })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  });
});
