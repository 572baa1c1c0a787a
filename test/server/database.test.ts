import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate';
import { insertUser } from '../../server/db/repositories/users';
import { seedDemoData } from '../../server/seed';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`database (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs on the database the suite was asked for', async () => {
    if (dbKind === 'postgres') {
      const { rows } = await sql<{ v: string }>`select version() as v`.execute(t.db);
      expect(rows[0].v).toMatch(/PostgreSQL/);
    } else {
      const { rows } = await sql<{ mode: string }>`select journal_mode as mode from pragma_journal_mode`.execute(t.db);
      expect(rows[0].mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`select foreign_keys from pragma_foreign_keys`.execute(t.db);
      expect(fk.rows[0].foreign_keys).toBe(1);
    }
  });

  it('migrates idempotently and seeds only an empty database', async () => {
    await migrateToLatest(t.db);
    expect(await seedDemoData(t.db, { password: 'whatever-123', publicUrl: 'http://x' })).toEqual({ seeded: false, accounts: [] });
    const users = await t.db.selectFrom('users').select(['email', 'role', 'client_id', 'verified', 'status']).orderBy('email').execute();
    expect(users).toEqual([
      { email: 'admin@demo.local', role: 'admin', client_id: expect.any(String), verified: 1, status: 'active' },
      { email: 'newhire@demo.local', role: 'user', client_id: expect.any(String), verified: 1, status: 'active' },
      { email: 'super@demo.local', role: 'superuser', client_id: null, verified: 1, status: 'active' },
      { email: 'user@demo.local', role: 'user', client_id: expect.any(String), verified: 1, status: 'active' },
    ]);
    const packages = await t.db.selectFrom('packages').select('type').orderBy('type').execute();
    expect(packages.map((p) => p.type)).toEqual(['free', 'premium', 'standard']);
    const client = await t.db.selectFrom('clients').selectAll().executeTakeFirstOrThrow();
    expect(client).toMatchObject({ client_name: 'Demo Organisation', status: 'active', client_type: 'corporate', auth_type: 'email' });
    expect(client.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps emails unique regardless of case', async () => {
    await expect(
      insertUser(t.db, { client_id: null, name: 'Dup', email: 'USER@demo.local', password_hash: null, role: 'user' }),
    ).rejects.toThrow();
  });

  it('enforces foreign keys', async () => {
    await expect(
      insertUser(t.db, { client_id: 'missing-client', name: 'Orphan', email: 'orphan@demo.local', password_hash: null, role: 'user' }),
    ).rejects.toThrow();
  });

  it('generates a random demo password when none is given', async () => {
    const fresh = await createTestApp();
    try {
      await fresh.db.deleteFrom('clients').execute();
      await fresh.db.deleteFrom('users').execute();
      await fresh.db.deleteFrom('packages').execute();
      const result = await seedDemoData(fresh.db, { publicUrl: 'http://x' });
      expect(result.seeded).toBe(true);
      expect(result.password).toMatch(/^[\w-]{16,}$/);
      expect(result.password).not.toBe('demo-password-123');
    } finally {
      await fresh.close();
    }
  });
});
