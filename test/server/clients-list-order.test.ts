import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageInNameOrder } from '../../server/db/repositories/clients';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

/**
 * The Clients page reads a page of clients in name order. Its query plan must walk the name index rather than sort the
 * whole table for each page. PostgreSQL prefers a sort on a table this small, so there the plan is read with
 * sequential scans and sorts priced out: the index is used only if it can give that order.
 */
describe(`a page of clients in name order (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is read through the index clients_lower_name_name_id, with no sort', async () => {
    const page = pageInNameOrder(t.db.selectFrom('clients'), { limit: 10, offset: 20 }).compile();
    const plan = await t.db.connection().execute(async (conn) => {
      if (dbKind === 'sqlite') {
        const { rows } = await conn.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${page.sql}`, [...page.parameters]));
        return rows.map((r) => r.detail).join('\n');
      }
      await conn.executeQuery(CompiledQuery.raw('begin'));
      try {
        await conn.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        await conn.executeQuery(CompiledQuery.raw('set local enable_sort = off'));
        const { rows } = await conn.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${page.sql}`, [...page.parameters]));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await conn.executeQuery(CompiledQuery.raw('rollback'));
      }
    });
    expect(plan).toContain('clients_lower_name_name_id');
    expect(plan).not.toMatch(/TEMP B-TREE|\bSort\b/);
  });
});
