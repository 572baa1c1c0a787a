import { vi } from 'vitest';
import { useWorkerDatabase } from './worker-database';

// The server project shares each worker between test files (isolate: false in vitest.config.ts), so node_modules
// (fastify, kysely, pdf.js, ...) load once per worker instead of once per file. Our own modules are evaluated
// afresh for every file, as with isolation: a file's vi.mock (chat-failures.test.ts) and the module-level state of
// the server see no earlier file.
vi.resetModules();

// On PostgreSQL, this worker's own database (TEST_DATABASE_URL is pointed at it).
await useWorkerDatabase();
