import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { JobCutOff, type JobPayloads } from '../../server/platform/jobs/queue';
import { FAST_JOBS, redisEnqueuer, sharedDatabase, until, type SharedDatabase } from './helpers/job-instances';

// With REDIS_URL, ingestion runs as BullMQ jobs (on the machine's Redis, 127.0.0.1:6379, under a prefix of the test's
// own): each job once across instances, one job per key, retries then a recorded failure, a job cut off by a
// shutdown finished by another instance. A job whose instance was killed is in jobs-crash.test.ts.

const REDIS_URL = 'redis://127.0.0.1:6379/0';
type Ingest = JobPayloads['ingest-document'];

describe('ingestion jobs on BullMQ, shared by several instances', () => {
  let shared: SharedDatabase | undefined;
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await shared?.close();
    shared = undefined;
  });

  /** Instances on one database and one Redis prefix, and a queue that only enqueues there (as an upload route would). */
  async function setUp() {
    shared = await sharedDatabase();
    const env = { REDIS_URL, REDIS_PREFIX: `test-${randomBytes(5).toString('hex')}:` };
    const enqueuer = redisEnqueuer(shared, REDIS_URL, env.REDIS_PREFIX);
    stops.push(() => enqueuer.stop());
    return { env, enqueuer };
  }

  it('runs every job once across instances, one job per key, and never writes it to the jobs table', { timeout: 60_000 }, async () => {
    const { env, enqueuer } = await setUp();
    const JOBS = 60;
    const runs: { instance: number; documentId: string }[] = [];
    for (let n = 0; n < JOBS; n++) await enqueuer.enqueue('ingest-document', { documentId: `doc-${n}` }, { key: `ingest-document:doc-${n}` });
    // A second enqueue of a key still waiting is the same job.
    await enqueuer.enqueue('ingest-document', { documentId: 'doc-0' }, { key: 'ingest-document:doc-0' });
    expect(await enqueuer.counts()).toContainEqual({ name: 'ingest-document', status: 'queued', n: JOBS });

    const instance = (i: number) =>
      shared!.instance({
        env,
        jobs: {
          ...FAST_JOBS,
          leaseMs: 30_000,
          handlers: {
            'ingest-document': {
              async run({ documentId }) {
                runs.push({ instance: i, documentId });
                await new Promise((r) => setTimeout(r, 5));
              },
            },
          },
        },
      });
    await Promise.all([instance(1), instance(2)]);
    await until(async () => runs.length >= JOBS && (await enqueuer.counts()).every((c) => c.n === 0));
    expect(runs.map((r) => r.documentId).sort()).toEqual(Array.from({ length: JOBS }, (_, n) => `doc-${n}`).sort());
    expect(new Set(runs.map((r) => r.instance))).toEqual(new Set([1, 2]));
    expect(await shared!.db.selectFrom('jobs').select('id').where('name', '=', 'ingest-document').execute()).toEqual([]);
  });

  it('retries a failing job with a growing wait, then gives it up once and counts it as failed', { timeout: 60_000 }, async () => {
    const { env, enqueuer } = await setUp();
    const tries: { at: number; attempt: number }[] = [];
    const gaveUp: { payload: Ingest; error: string }[] = [];
    await shared!.instance({
      env,
      jobs: {
        ...FAST_JOBS,
        handlers: {
          'ingest-document': {
            maxAttempts: 3,
            run(_payload, run) {
              tries.push({ at: Date.now(), attempt: run.attempt });
              return Promise.reject(new Error('the extraction worker crashed'));
            },
            async gaveUp(payload, error) {
              gaveUp.push({ payload, error });
            },
          },
        },
      },
    });
    await enqueuer.enqueue('ingest-document', { documentId: 'doc-failing' }, { key: 'ingest-document:doc-failing' });
    await until(async () => gaveUp.length > 0);
    expect(gaveUp).toEqual([{ payload: { documentId: 'doc-failing' }, error: 'the extraction worker crashed' }]);
    expect(tries.map((t) => t.attempt)).toEqual([1, 2, 3]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(FAST_JOBS.retryBaseMs - 1);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(2 * FAST_JOBS.retryBaseMs - 1);
    expect(await enqueuer.counts()).toContainEqual({ name: 'ingest-document', status: 'failed', n: 1 });
    // A failed job keeps its key: enqueued again, nothing runs.
    await enqueuer.enqueue('ingest-document', { documentId: 'doc-failing' }, { key: 'ingest-document:doc-failing' });
    await new Promise((r) => setTimeout(r, 300));
    expect(tries).toHaveLength(3);
  });

  it('hands a job cut off by a shutdown back to waiting, for another instance to finish', { timeout: 60_000 }, async () => {
    const { env, enqueuer } = await setUp();
    let started!: () => void;
    const cutOffStarted = new Promise<void>((resolve) => (started = resolve));
    // One try each: the run cut off must not count as one.
    const first = await shared!.instance({
      env,
      jobs: {
        ...FAST_JOBS,
        handlers: {
          'ingest-document': {
            maxAttempts: 1,
            async run(_payload, run) {
              started();
              await new Promise((resolve) => run.signal.addEventListener('abort', resolve, { once: true }));
              throw new JobCutOff('stopped by the shutdown');
            },
          },
        },
      },
    });
    await enqueuer.enqueue('ingest-document', { documentId: 'doc-cut' }, { key: 'ingest-document:doc-cut' });
    await cutOffStarted;
    await first.close();
    expect(await enqueuer.counts()).toContainEqual({ name: 'ingest-document', status: 'queued', n: 1 });

    const finished: { payload: Ingest; attempt: number }[] = [];
    await shared!.instance({
      env,
      jobs: {
        ...FAST_JOBS,
        handlers: { 'ingest-document': { maxAttempts: 1, run: async (payload, run) => void finished.push({ payload, attempt: run.attempt }) } },
      },
    });
    await until(async () => finished.length > 0);
    expect(finished).toEqual([{ payload: { documentId: 'doc-cut' }, attempt: 1 }]);
  });
});
