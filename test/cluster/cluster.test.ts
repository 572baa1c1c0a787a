import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineReply } from '../../server/llm/offline';
import { uploadFile } from '../server/helpers/document-api';
import { pdfFile } from '../server/helpers/document-fixtures';
import { freePort } from '../server/helpers/free-port';
import { startNginx, type Nginx } from '../server/helpers/nginx';
import { startFakeEmbeddings, type FakeEmbeddings } from '../server/helpers/fake-embeddings';
import { startS3Peer, type S3Peer } from '../server/helpers/s3-peer';
import { readSse } from '../server/helpers/sse';
import { withPg } from '../server/helpers/test-app';

// Two real instances of the server (`server/main.ts`, each its own process and DATA_DIR) on one PostgreSQL database,
// one Redis and one fake S3, behind nginx with the deployment's proxy settings: what several instances must do as
// one service (issue 32). Needs TEST_DATABASE_URL (a database is created for the run and dropped after).

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('the cluster test needs TEST_DATABASE_URL=postgres://... (a database is created for the run)');

const PASSWORD = 'cluster-demo-password';
const API = '/api/v1';

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

let s3: S3Peer;
let embeddings: FakeEmbeddings;
let startedAt: number;
let proxy: Nginx;
let a: Instance;
let b: Instance;
let dbName: string;
const dirs: string[] = [];
let env: Record<string, string>;

/** Starts instance `name` (on `port`: a killed one comes back where the proxy expects it). */
async function startInstance(name: string, port?: number): Promise<Instance> {
  port ??= await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tanya-cluster-${name}-`));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // Its own embeddings key: the fake embeddings server tells by it which instance asked.
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, EMBEDDINGS_API_KEY: `key-${name}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`instance ${name} exited: ${output.join('')}`);
    const ready = await fetch(`${url}${API}/health/ready`).then((r) => r.ok, () => false);
    if (ready) return { name, url, child, output };
    if (Date.now() > deadline) throw new Error(`instance ${name} not ready within 60 s: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const call = (base: string, method: string, url: string, token?: string, body?: unknown) =>
  fetch(`${base}${API}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function signIn(base: string, email: string, password = PASSWORD): Promise<string> {
  const res = await call(base, 'POST', '/auth/login', undefined, { email, password });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** Starts a reply on `base`; resolves with its ids once its first text arrived, and `finished` when it ends. */
async function startReply(base: string, token: string, message: string, conversationId: string | null = null) {
  const res = await call(base, 'POST', '/chat/messages', token, { conversation_id: conversationId, message });
  expect(res.status).toBe(200);
  const events = readSse(res.body!);
  const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
  await events.next();
  const finished = (async () => {
    let done = false;
    try {
      for await (const event of events) if (event.event === 'done') done = true;
    } catch {
      // the writer was killed
    }
    return done;
  })();
  return { ...control, finished };
}

beforeAll(async () => {
  dbName = `tanya_cluster_${randomBytes(5).toString('hex')}`;
  await withPg(databaseUrl, (c) => c.query(`create database ${dbName}`));
  const target = new URL(databaseUrl);
  target.pathname = `/${dbName}`;
  s3 = await startS3Peer();
  embeddings = await startFakeEmbeddings();
  env = {
    ...s3.env,
    DATABASE_URL: target.href,
    REDIS_URL: 'redis://127.0.0.1:6379/0',
    REDIS_PREFIX: `cluster-${randomBytes(5).toString('hex')}:`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    DEMO_PASSWORD: PASSWORD,
    PASSWORD_HASH_COST: 'low',
    PUBLIC_URL: 'http://tanya.cluster.test',
    STATIC_DIR: path.join(os.tmpdir(), 'tanya-cluster-no-dist'),
    // About 3 s of writing per reply (130 words): long enough to follow, stop and kill mid-way.
    OFFLINE_TOKEN_DELAY_MS: '25',
    LOGIN_RATE_LIMIT_PER_IP_EMAIL: '3',
    LOG_LEVEL: 'warn',
    EMBEDDINGS_MODEL: 'fake-embed',
    EMBEDDINGS_BASE_URL: embeddings.baseUrl,
    // A job whose instance died is taken up within 2 to 4 s (30 to 60 s by default).
    JOB_LEASE_MS: '2000',
  };
  startedAt = Date.now();
  // One after the other: the first migrates and seeds the empty database.
  a = await startInstance('a');
  b = await startInstance('b');
  proxy = await startNginx([new URL(a.url).host, new URL(b.url).host]);
}, 120_000);

afterAll(async () => {
  // A process ended by a signal has no exit code, only its signal.
  const running = [a, b].filter((i) => i && i.child.exitCode === null && i.child.signalCode === null);
  const exited = running.map((i) => new Promise((r) => i.child.once('exit', r)));
  for (const instance of running) instance.child.kill('SIGTERM');
  await Promise.all(exited);
  await proxy?.stop();
  await s3?.stop();
  await embeddings?.close();
  if (dbName) await withPg(databaseUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`));
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
}, 60_000);

describe('two instances behind nginx, one database, one Redis, one S3', () => {
  it('takes a session from one on the other, and through the proxy whichever answers', async () => {
    const token = await signIn(a.url, 'user@demo.local');
    for (const base of [b.url, proxy.url, proxy.url]) {
      const me = await call(base, 'GET', '/users/me', token);
      expect(me.status).toBe(200);
    }
  });

  it('follows a reply written on one from the other as it is written, and refuses a second question there (409)', async () => {
    const token = await signIn(a.url, 'user@demo.local');
    const question = 'Written on a, read on b';
    const reply = await startReply(a.url, token, question);
    const busy = await call(b.url, 'POST', '/chat/messages', token, { conversation_id: reply.conversation_id, message: 'Me too' });
    expect(busy.status).toBe(409);

    const res = await call(b.url, 'GET', `/chat/messages/${reply.message_id}/stream`, token);
    expect(res.status).toBe(200);
    let text = '';
    const arrivals: number[] = [];
    for await (const event of readSse(res.body!)) {
      if (event.event === 'message') {
        text += JSON.parse(event.data) as string;
        arrivals.push(performance.now());
      }
    }
    expect(await reply.finished).toBe(true);
    expect(text).toBe(offlineReply(question));
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(1_000);
  });

  it('counts sign-in failures across both (3 per address and e-mail)', async () => {
    const wrong = (base: string) => call(base, 'POST', '/auth/login', undefined, { email: 'admin@demo.local', password: 'not-the-password' });
    expect((await wrong(a.url)).status).toBe(401);
    expect((await wrong(b.url)).status).toBe(401);
    expect((await wrong(a.url)).status).toBe(401);
    expect((await wrong(b.url)).status).toBe(429);
  });

  it('stores a file uploaded on one where the other serves it byte for byte and ingests it', async () => {
    const token = await signIn(a.url, 'user@demo.local');
    const first = await startReply(a.url, token, 'Files for both');
    expect(await first.finished).toBe(true);
    const conversationId = first.conversation_id;
    const bytes = pdfFile(['Shared between the instances']);
    const uploaded = await uploadFile({ apiUrl: `${a.url}${API}`, token }, conversationId, 'shared.pdf', bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const res = await call(b.url, 'GET', `/documents/${uploaded.body.data.id}/file`, token);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    await expect
      .poll(async () => ((await (await call(b.url, 'GET', `/documents/${uploaded.body.data.id}`, token)).json()) as { data: { status: string } }).data.status, { timeout: 20_000 })
      .toBe('ready');
  });

  it('runs each periodic upkeep task once across both, not once per instance', async () => {
    const runs = async (name: string) => {
      let total = 0;
      for (const instance of [a, b]) {
        const text = await (await fetch(`${instance.url}/metrics`)).text();
        const line = text.split('\n').find((l) => l.startsWith(`tanya_job_runs_total{name="${name}",outcome="ok"}`));
        total += line ? Number(line.split(' ').at(-1)) : 0;
      }
      return total;
    };
    // Due at once on a new database, then hourly: one run in all, though both instances scheduled it at start.
    expect(await runs('upkeep-unsent-uploads')).toBe(1);
    // Every 5 s: at most one run per 5 s since the first instance started (twice that if each ran its own).
    const elapsed = Date.now() - startedAt;
    const sweeps = await runs('upkeep-interrupted-replies');
    console.log(`[cluster] interrupted-reply sweeps in ${(elapsed / 1000).toFixed(1)} s: ${sweeps} across both (every 5 s)`);
    expect(sweeps).toBeGreaterThan(0);
    expect(sweeps).toBeLessThanOrEqual(Math.floor(elapsed / 5_000) + 1);
  });

  it('finishes on the other instance an ingestion whose instance was killed mid-way (kill -9)', async () => {
    const token = await signIn(a.url, 'user@demo.local');
    const first = await startReply(a.url, token, 'Ingestion cut short');
    expect(await first.finished).toBe(true);
    const marker = 'Cut short by a crash';
    embeddings.holdWhenInputHas(marker);
    const uploaded = await uploadFile({ apiUrl: `${a.url}${API}`, token }, first.conversation_id, 'crash.pdf', pdfFile([marker]));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    // Whichever instance took the job waits for its embeddings: kill that one.
    await expect.poll(() => embeddings.held.length, { timeout: 20_000 }).toBe(1);
    const victim = embeddings.held[0].authorization === 'Bearer key-a' ? a : b;
    const survivor = victim === a ? b : a;
    embeddings.holdWhenInputHas(undefined);
    victim.child.kill('SIGKILL');
    await new Promise((r) => victim.child.once('exit', r));
    const killedAt = Date.now();
    const status = async () =>
      ((await (await call(survivor.url, 'GET', `/documents/${uploaded.body.data.id}`, token)).json()) as { data: { status: string } }).data.status;
    await expect.poll(status, { timeout: 30_000, interval: 250 }).toBe('ready');
    console.log(`[cluster] ingestion killed on ${victim.name} finished by ${survivor.name} ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (JOB_LEASE_MS 2000)`);
    expect(embeddings.embeddingRequests.filter((r) => r.input.some((t) => t.includes(marker))).map((r) => r.authorization)).toEqual([
      `Bearer key-${survivor.name}`,
    ]);
    // Back on the same port, behind the proxy as before, for what follows.
    const restarted = await startInstance(victim.name, Number(new URL(victim.url).port));
    if (victim === a) a = restarted;
    else b = restarted;
  });

  it('leaves a conversation usable on the other within seconds when the writer is killed mid-reply (kill -9)', async () => {
    const token = await signIn(b.url, 'user@demo.local');
    const reply = await startReply(a.url, token, 'Interrupted by a crash');
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const killedAt = Date.now();
    let accepted: Awaited<ReturnType<typeof startReply>> | undefined;
    while (!accepted) {
      const res = await call(b.url, 'POST', '/chat/messages', token, { conversation_id: reply.conversation_id, message: 'Still there?' });
      if (res.status === 200) {
        await res.body?.cancel();
        accepted = reply;
      } else {
        expect(res.status).toBe(409);
        expect(Date.now() - killedAt, 'the conversation stayed busy').toBeLessThan(30_000);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const seconds = (Date.now() - killedAt) / 1000;
    console.log(`[cluster] a send into the conversation was accepted on b ${seconds.toFixed(1)} s after a was killed`);
    // Through the proxy: nginx skips the dead instance.
    expect((await call(proxy.url, 'GET', '/health')).status).toBe(200);
  }, 60_000);
});
