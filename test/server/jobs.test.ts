import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { JobCutOff, type JobPayloads } from '../../server/platform/jobs/queue';
import { createSqlJobQueue } from '../../server/platform/jobs/sql-queue';
import { FAILED_JOB_RETENTION_MS, upkeepHandlers } from '../../server/upkeep';
import { login, post } from './helpers/fixtures';
import { FAST_JOBS, sharedDatabase, until, type SharedDatabase } from './helpers/job-instances';
import { resetTokenFrom, startSmtpPeer } from './helpers/smtp-peer';

// The job queue across instances sharing one database (as servers behind a proxy do): each job is run by exactly
// one of them, a failing one is retried with a growing wait and then recorded as failed, a mail survives an SMTP
// server that is down at first, a job cut off by a shutdown is handed back, and periodic upkeep runs once in all.
// Leases, polls and backoffs are shortened through the app's options; nothing here bounds how long anything takes.

const silentLog = { child: () => silentLog, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
type TitlePayload = JobPayloads['conversation-title'];

/** Enqueues as a process that runs no jobs itself would (the instances under test claim them). */
function enqueuer(shared: SharedDatabase) {
  return createSqlJobQueue({ db: shared.db, log: silentLog, closing: new AbortController().signal });
}

const title = (n: number): TitlePayload => ({ userId: `user-${n}`, conversationId: `conversation-${n}`, messageId: `message-${n}` });

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('jobs shared by several instances', () => {
  let shared: SharedDatabase | undefined;
  afterEach(async () => {
    await shared?.close();
    shared = undefined;
  });

  it('runs every job once, never on two instances', { timeout: 60_000 }, async () => {
    shared = await sharedDatabase();
    const JOBS = 120;
    const queue = enqueuer(shared);
    for (let n = 0; n < JOBS; n++) await queue.enqueue('conversation-title', title(n));
    const runs: { instance: number; conversationId: string }[] = [];
    const instance = (i: number) =>
      shared!.instance({
        ownConnection: true,
        jobs: {
          ...FAST_JOBS,
          // What is tested is the atomic claim: a lease long enough that no stall of a loaded machine lets one lapse
          // (a lapsed lease is taken over by design, which would run that job twice).
          leaseMs: 30_000,
          concurrency: 8,
          handlers: {
            'conversation-title': {
              async run(payload) {
                runs.push({ instance: i, conversationId: payload.conversationId });
                // Long enough for the other instances to be claiming meanwhile.
                await sleep(2);
              },
            },
          },
        },
      });
    await Promise.all([instance(1), instance(2), instance(3)]);
    await until(async () => (await shared!.db.selectFrom('jobs').select('id').where('name', '=', 'conversation-title').execute()).length === 0);

    const ran = runs.map((r) => r.conversationId).sort();
    expect(ran).toEqual(Array.from({ length: JOBS }, (_, n) => `conversation-${n}`).sort());
    console.log(`jobs per instance: ${[1, 2, 3].map((i) => runs.filter((r) => r.instance === i).length).join(', ')}`);
  });

  it('retries a failing job with a growing wait, then records it as failed', async () => {
    shared = await sharedDatabase();
    const tries: number[] = [];
    const gaveUp: { payload: TitlePayload; error: string }[] = [];
    await shared.instance({
      jobs: {
        ...FAST_JOBS,
        handlers: {
          'conversation-title': {
            maxAttempts: 3,
            run() {
              tries.push(Date.now());
              return Promise.reject(new Error('the model is down'));
            },
            async gaveUp(payload, error) {
              gaveUp.push({ payload, error });
            },
          },
        },
      },
    });
    await enqueuer(shared).enqueue('conversation-title', title(1));
    const failed = await until(async () =>
      shared!.db.selectFrom('jobs').selectAll().where('name', '=', 'conversation-title').where('status', '=', 'failed').executeTakeFirst(),
    );
    expect(failed).toMatchObject({ attempts: 3, last_error: 'the model is down', leased_by: null, leased_until: null });
    expect(JSON.parse(failed.payload)).toEqual(title(1));
    expect(gaveUp).toEqual([{ payload: title(1), error: 'the model is down' }]);
    expect(tries).toHaveLength(3);
    // The second try waited at least the base backoff after the first, the third at least twice that (lower bounds
    // only: they hold however slow the machine; timestamps are whole milliseconds).
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(FAST_JOBS.retryBaseMs - 1);
    expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(2 * FAST_JOBS.retryBaseMs - 1);
  });

  it('delivers a password reset mail once the SMTP server is up, though it was down when asked', { timeout: 60_000 }, async () => {
    const port = await freePort();
    shared = await sharedDatabase({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, MAIL_FROM: 'Tanya Test <tanya@tanya.test>' });
    const app = await shared.instance({ jobs: FAST_JOBS });

    const res = await post(app, '/auth/request-reset-password', { email: 'user@demo.local' });
    expect(res.statusCode).toBe(200);
    // Tried and failed: nothing listens on the port yet.
    const waiting = await until(async () =>
      shared!.db.selectFrom('jobs').selectAll().where('name', '=', 'password-reset-mail').where('last_error', 'is not', null).executeTakeFirst(),
    );
    expect(waiting.status).not.toBe('failed');
    expect(waiting.payload).not.toMatch(/reset-password|token/);

    const smtp = await startSmtpPeer(port);
    const { received } = smtp;
    try {
      await until(async () => received.length > 0);
      await until(async () => (await shared!.db.selectFrom('jobs').select('id').where('name', '=', 'password-reset-mail').execute()).length === 0);
      expect(received).toHaveLength(1);
      expect(received[0].to).toEqual(['user@demo.local']);
      expect(received[0].raw).toMatch(/^Subject: Reset your Tanya password\r?$/m);
      const token = resetTokenFrom(received[0].raw);
      const reset = await post(app, '/auth/reset-password', { token, new_password: 'after-the-outage-1' });
      expect(reset.statusCode).toBe(200);
      await login(app, 'user@demo.local', 'after-the-outage-1');
    } finally {
      await smtp.close();
    }
  });

  it('hands a job cut off by a shutdown back to the queue, for another instance to finish', { timeout: 60_000 }, async () => {
    shared = await sharedDatabase();
    let started!: () => void;
    const cutOffStarted = new Promise<void>((resolve) => (started = resolve));
    const first = await shared.instance({
      jobs: {
        ...FAST_JOBS,
        handlers: {
          'conversation-title': {
            async run(_payload, run) {
              started();
              // Works until the shutdown's grace period ends, then stops unfinished.
              await new Promise((resolve) => run.signal.addEventListener('abort', resolve, { once: true }));
              throw new JobCutOff('stopped by the shutdown');
            },
          },
        },
      },
    });
    await enqueuer(shared).enqueue('conversation-title', title(7));
    await cutOffStarted;
    await first.close();
    const handedBack = await shared.db.selectFrom('jobs').selectAll().where('name', '=', 'conversation-title').executeTakeFirstOrThrow();
    // Back in the queue, due, and the cut-off run not counted as a try.
    expect(handedBack).toMatchObject({ status: 'queued', attempts: 0, leased_by: null });

    const finished: TitlePayload[] = [];
    await shared.instance({
      jobs: { ...FAST_JOBS, handlers: { 'conversation-title': { run: async (payload) => void finished.push(payload) } } },
    });
    await until(async () => finished.length > 0);
    expect(finished).toEqual([title(7)]);
  });

  it('runs periodic upkeep on one instance, once per interval, however many take part', async () => {
    shared = await sharedDatabase();
    const runs: number[] = [];
    const upkeep = (i: number) =>
      shared!.instance({
        maintenance: true,
        ownConnection: true,
        jobs: { ...FAST_JOBS, handlers: { 'upkeep-unsent-uploads': { run: async () => void runs.push(i) } } },
      });
    const apps = await Promise.all([upkeep(1), upkeep(2)]);
    // The sweep of unsent uploads is due at once on a new database, then hourly.
    const rescheduled = await until(async () => {
      const row = await shared!.db.selectFrom('jobs').selectAll().where('name', '=', 'upkeep-unsent-uploads').executeTakeFirstOrThrow();
      return row.status === 'queued' && row.run_after > new Date(Date.now() + 30 * 60_000).toISOString() && row;
    });
    expect(rescheduled).toMatchObject({ attempts: 0, last_error: null });
    // A third instance starting later neither runs it again nor moves its schedule.
    apps.push(await upkeep(3));
    for (const app of apps) await app.close();
    expect(runs).toHaveLength(1);
    const after = await shared.db.selectFrom('jobs').select('run_after').where('name', '=', 'upkeep-unsent-uploads').executeTakeFirstOrThrow();
    expect(after.run_after).toBe(rescheduled.run_after);
    expect(await shared.db.selectFrom('jobs').select('key').where('name', 'like', 'upkeep-%').orderBy('key').execute()).toEqual([
      { key: 'repeat:upkeep-failed-jobs' },
      { key: 'repeat:upkeep-interrupted-replies' },
      { key: 'repeat:upkeep-rate-limits' },
      { key: 'repeat:upkeep-unsent-uploads' },
    ]);
  });

  it('deletes failed jobs once they are older than their retention, and keeps younger ones', async () => {
    shared = await sharedDatabase();
    const day = 24 * 3_600_000;
    const failedAt = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
    const failed = (id: string, daysAgo: number) => ({
      id,
      name: 'conversation-title',
      payload: JSON.stringify(title(1)),
      key: null,
      status: 'failed' as const,
      attempts: 3,
      max_attempts: 3,
      run_after: failedAt(daysAgo),
      leased_until: null,
      leased_by: null,
      last_error: 'the model is down',
      created_at: failedAt(daysAgo),
      updated_at: failedAt(daysAgo),
    });
    const olderThanRetention = FAILED_JOB_RETENTION_MS / day + 1;
    await shared.db.insertInto('jobs').values([failed('old', olderThanRetention), failed('recent', 2)]).execute();
    const handlers = upkeepHandlers({ db: shared.db, files: undefined as never, log: silentLog });
    await handlers['upkeep-failed-jobs'].run({}, { id: 'upkeep', attempt: 1, signal: new AbortController().signal });
    expect((await shared.db.selectFrom('jobs').select('id').where('status', '=', 'failed').execute()).map((j) => j.id)).toEqual(['recent']);
  });
});
