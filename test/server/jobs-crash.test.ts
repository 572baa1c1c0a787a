import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDocument } from '../../server/db/repositories/documents';
import { queueIngestion } from '../../server/services/documents/ingest/ingest-document';
import { createSqlJobQueue } from '../../server/platform/jobs/sql-queue';
import { createLocalFileStorage, newStorageKey } from '../../server/platform/file-storage';
import { startFakeEmbeddings, type FakeEmbeddings } from './helpers/fake-embeddings';
import { FAST_JOBS, redisEnqueuer, sharedDatabase, until, type SharedDatabase } from './helpers/job-instances';

// A server killed (SIGKILL: no shutdown, no hand-back) while it ingests a document leaves the job leased; a live
// instance on the same database takes it up once the lease has lapsed, never while the dead one still held it, and
// the document ends ready, as if nothing had happened.

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'job-child.ts');
const CHILD_LEASE_MS = 800;
const silentLog = { child: () => silentLog, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
const TEXT = 'Written before the crash: the zebra crossing budget for next year.';

/** An embeddings endpoint that takes requests and never answers: ingestion waits there, mid-way. */
async function startSilentEndpoint() {
  const requests: string[] = [];
  const server = http.createServer((req) => void requests.push(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the child server exited (${code}) before it was ready:\n${output}`)));
  });
}

/** A text file stored and its document row queued, as an upload leaves them before its job runs. */
async function storedDocument(shared: SharedDatabase) {
  const { db, config } = shared;
  const user = await db.selectFrom('users').select('id').where('email', '=', 'user@demo.local').executeTakeFirstOrThrow();
  const files = createLocalFileStorage(path.join(config.dataDir, 'files'));
  const key = newStorageKey();
  await files.put(key, Buffer.from(TEXT));
  const doc = await insertDocument(db, {
    user_id: user.id,
    client_id: null,
    department_id: null,
    unit_id: null,
    conversation_id: null,
    filename: 'budget.txt',
    extension: '.txt',
    mime: 'text/plain',
    size: TEXT.length,
    origin: 'upload',
    storage_key: key,
    file_key: `k${key.replace(/\W/g, '')}`,
    status: 'queued',
  });
  return doc;
}

/**
 * What each crash test needs, made before its tests and ended after: a database shared with a child process, an
 * embeddings endpoint that never answers (where the child is left mid-way) and one that does (for the live instance).
 */
function crashScene() {
  const scene = {} as { shared: SharedDatabase; silent: Awaited<ReturnType<typeof startSilentEndpoint>>; fake: FakeEmbeddings; child?: ChildProcess };
  beforeAll(async () => {
    scene.shared = await sharedDatabase();
    scene.silent = await startSilentEndpoint();
    scene.fake = await startFakeEmbeddings();
  });
  afterAll(async () => {
    scene.child?.kill('SIGKILL');
    await scene.shared.close();
    await scene.silent.close();
    await scene.fake.close();
  });
  return scene;
}

describe('a job whose process crashed', () => {
  const scene = crashScene();

  it('is taken up by a live instance once its lease lapses, and the document is ingested whole (jobs table)', { timeout: 90_000 }, async () => {
    const { db } = scene.shared;
    const doc = await storedDocument(scene.shared);
    // Queued as the upload route does (a queue that only enqueues: no process here runs jobs yet).
    await queueIngestion({ jobs: createSqlJobQueue({ db, log: silentLog, closing: new AbortController().signal }) }, doc.id);

    scene.child = await startChild({
      ...scene.shared.childEnv,
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_BASE_URL: scene.silent.baseUrl,
      EMBEDDINGS_API_KEY: 'embed-key',
      JOB_CHILD_LEASE_MS: String(CHILD_LEASE_MS),
      JOB_CHILD_POLL_MS: '25',
    });
    const childPid = scene.child.pid!;
    // The child has read and chunked the file and waits for its embeddings: mid-way.
    await until(async () => scene.silent.requests.length > 0);
    const held = await db.selectFrom('jobs').selectAll().where('name', '=', 'ingest-document').executeTakeFirstOrThrow();
    expect(held).toMatchObject({ status: 'running', attempts: 1 });
    expect(held.leased_by).toContain(`/${childPid}/`);
    expect((await db.selectFrom('documents').select('status').where('id', '=', doc.id).executeTakeFirstOrThrow()).status).toBe('embedding');

    // A live instance whose embeddings answer. While the child renews its lease, the live one leaves the job alone.
    await scene.shared.instance({
      env: { EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_BASE_URL: scene.fake.baseUrl, EMBEDDINGS_API_KEY: 'embed-key' },
      jobs: FAST_JOBS,
    });
    let leasedUntil = held.leased_until!;
    for (let renewals = 0; renewals < 2; renewals++) {
      leasedUntil = await until(async () => {
        const row = await db.selectFrom('jobs').select('leased_until').where('id', '=', held.id).executeTakeFirstOrThrow();
        return row.leased_until! > leasedUntil && row.leased_until!;
      });
    }
    expect(scene.fake.embeddingRequests).toEqual([]);
    expect((await db.selectFrom('jobs').select('leased_by').where('id', '=', held.id).executeTakeFirstOrThrow()).leased_by).toBe(held.leased_by);

    const exited = new Promise((resolve) => scene.child!.once('exit', resolve));
    scene.child.kill('SIGKILL');
    await exited;
    scene.child = undefined;

    const ready = await until(async () => {
      const row = await db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
      return row.status === 'ready' && row;
    }, 30_000);
    expect(ready).toMatchObject({ status: 'ready', chunk_count: 1, error: null });
    expect(scene.fake.embeddingRequests.map((r) => r.input)).toEqual([[TEXT]]);
    const chunks = await db.selectFrom('document_chunks').select(['content', 'embedding']).where('document_id', '=', doc.id).execute();
    expect(chunks.map((c) => c.content)).toEqual([TEXT]);
    expect(chunks[0].embedding).not.toBeNull();
    // Done: the job has left the table.
    await until(async () => (await db.selectFrom('jobs').select('id').where('id', '=', held.id).execute()).length === 0);
  });
});

describe('an ingestion job on BullMQ whose process crashed (REDIS_URL)', () => {
  const scene = crashScene();
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379/0', REDIS_PREFIX: `crash-${randomBytes(5).toString('hex')}:` };

  it('is moved back to waiting by a live instance once the dead one stops renewing its lock, and ingested whole', { timeout: 90_000 }, async () => {
    const { db } = scene.shared;
    const doc = await storedDocument(scene.shared);
    const enqueuer = redisEnqueuer(scene.shared, redis.REDIS_URL, redis.REDIS_PREFIX);
    await queueIngestion({ jobs: enqueuer }, doc.id);
    await enqueuer.stop();

    scene.child = await startChild({
      ...scene.shared.childEnv,
      ...redis,
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_BASE_URL: scene.silent.baseUrl,
      EMBEDDINGS_API_KEY: 'embed-key',
      JOB_CHILD_LEASE_MS: String(CHILD_LEASE_MS),
      JOB_CHILD_POLL_MS: '25',
    });
    await until(async () => scene.silent.requests.length > 0);
    expect((await db.selectFrom('documents').select('status').where('id', '=', doc.id).executeTakeFirstOrThrow()).status).toBe('embedding');

    // A live instance whose embeddings answer, checking for stalled jobs every 600 ms: while the child renews its
    // lock (every 400 ms) through several checks, the job stays with the child.
    await scene.shared.instance({
      env: { ...redis, EMBEDDINGS_MODEL: 'fake-embed', EMBEDDINGS_BASE_URL: scene.fake.baseUrl, EMBEDDINGS_API_KEY: 'embed-key' },
      jobs: FAST_JOBS,
    });
    await new Promise((r) => setTimeout(r, 4 * CHILD_LEASE_MS));
    expect(scene.fake.embeddingRequests).toEqual([]);

    const exited = new Promise((resolve) => scene.child!.once('exit', resolve));
    scene.child.kill('SIGKILL');
    await exited;
    scene.child = undefined;
    const killedAt = Date.now();

    const ready = await until(async () => {
      const row = await db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
      return row.status === 'ready' && row;
    }, 30_000);
    console.log(`ingestion finished by the live instance ${Date.now() - killedAt} ms after the kill (lock ${CHILD_LEASE_MS} ms, stalled check every ${FAST_JOBS.leaseMs} ms)`);
    expect(ready).toMatchObject({ status: 'ready', chunk_count: 1, error: null });
    expect(scene.fake.embeddingRequests.map((r) => r.input)).toEqual([[TEXT]]);
    expect(await db.selectFrom('jobs').select('id').execute()).toEqual([]);
  });
});
