import { defineConfig } from 'vitest/config';

// Two projects: pure unit + model tests, and server tests (real database, real HTTP peers).
// Server tests run once on SQLite and, when TEST_DATABASE_URL is set, once more on PostgreSQL (TEST_DB=postgres).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/model/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
    ],
  },
});
