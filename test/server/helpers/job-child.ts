// A server process for the jobs crash test (test/server/jobs-crash.test.ts): an app on the database the environment
// names (JOB_CHILD_PG_OPTIONS: the test's schema), taking part in the job queue with the lease and poll given in
// JOB_CHILD_LEASE_MS / JOB_CHILD_POLL_MS. It says "ready" on stdout and runs until it is killed.
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { createDb } from '../../../server/db/create-db';

const config = loadConfig(process.env);
const pgOptions = process.env.JOB_CHILD_PG_OPTIONS;
const db = createDb(config, pgOptions ? { pgOptions } : {});
const app = await buildApp({
  config,
  db,
  logger: false,
  jobs: { leaseMs: Number(process.env.JOB_CHILD_LEASE_MS), pollMs: Number(process.env.JOB_CHILD_POLL_MS) },
});
await app.ready();
// The queue's timers do not keep a process alive by themselves; a server's listening socket would.
setInterval(() => {}, 60_000);
process.stdout.write(`ready ${process.pid}\n`);
