import { defineConfig } from 'vitest/config';

// Two projects: pure unit + model tests, and server tests (real database, real HTTP peers).
// Server tests run once on SQLite and, when TEST_DATABASE_URL is set, once more on PostgreSQL (TEST_DB=postgres).
// Vitest's default on 2 cores is one worker (cores - 1); both projects run 2 forks: every server test app has its
// own database (a SQLite file in its own temp dir, or its own schema, test/server/helpers/test-app.ts), so files do
// not see each other's rows, and a file waiting on PostgreSQL, a timer or a child process leaves the core to another.
const WORKERS = 2;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/model/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: WORKERS,
          // A hang guard, not a goal: with 2 workers on a loaded machine (load 16) the ESLint and property tests took
          // 5.4 s and 9.4 s against the 5 s default. `npm test` runs this suite at the lowest priority beside the
          // browser suite (scripts/test.sh), where it took 5.5 times as long as alone; starved harder (beside every
          // other suite) the same two tests passed 30 s.
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: WORKERS,
          isolate: false,
          setupFiles: ['test/server/helpers/fresh-modules.ts'],
          globalSetup: ['test/server/helpers/global-database.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        test: {
          // Two real server processes on PostgreSQL, Redis and a fake S3 behind nginx (test/cluster): one file, in order.
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 60000,
          hookTimeout: 120000,
        },
      },
    ],
  },
});
