import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as departmentNames from '../../server/db/migrations/2026-11-24-02-department-names';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { isUniqueViolation } from '../../server/db/unique-violation';
import { createOrganisation } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

/** The unique name indexes must build on a database that holds clashing names already (only possible by hand). */
describe(`the department names migration (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('tells clashing names apart by id, the oldest keeping its name, then refuses new clashes', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations take Kysely<any>
    const db = t.db as Kysely<any>;
    await departmentNames.down(db);
    const { client } = await createOrganisation(t.db, { name: 'Clash Org' });
    const first = await insertDepartment(t.db, client.id, 'Sales');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await insertDepartment(t.db, client.id, 'SALES');
    const unit = await insertUnit(t.db, first.id, 'North');
    const unitTwin = await insertUnit(t.db, first.id, 'north');
    // Another organisation's 'sales' is no clash.
    const { client: otherClient } = await createOrganisation(t.db, { name: 'Second Org' });
    const elsewhere = await insertDepartment(t.db, otherClient.id, 'sales');

    await departmentNames.up(db);
    const rows = await t.db.selectFrom('departments').select(['id', 'name']).where('id', 'in', [first.id, second.id, elsewhere.id]).execute();
    const names = new Map(rows.map((d) => [d.id, d.name]));
    expect(names.get(first.id)).toBe('Sales');
    expect(names.get(second.id)).toBe(`SALES (${second.id})`);
    expect(names.get(elsewhere.id)).toBe('sales');
    const units = await t.db.selectFrom('units').select(['id', 'name']).where('department_id', '=', first.id).orderBy('name').execute();
    const [kept, renamed] = unit.id < unitTwin.id ? [unit, unitTwin] : [unitTwin, unit];
    expect(units).toEqual(
      expect.arrayContaining([
        { id: kept.id, name: kept.name },
        { id: renamed.id, name: `${renamed.name} (${renamed.id})` },
      ]),
    );
    const clash = await insertDepartment(t.db, client.id, 'sales').catch((err: unknown) => err);
    expect(isUniqueViolation(clash)).toBe(true);
  });
});
