import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { preparedQuery, type Slots } from '../../server/db/prepared-query';
import { findUserByEmail } from '../../server/db/repositories/users';
import { inTransaction } from '../../server/db/transaction';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const userByEmail = preparedQuery((db, slot: Slots<[email: string]>) =>
  db.selectFrom('users').select(['id', 'email', 'role']).where('email', '=', slot(0)),
);

const usersByRole = preparedQuery((db, slot: Slots<[role: Role, limit: number]>) =>
  db.selectFrom('users').select('email').where('role', '=', slot(0)).orderBy('email').limit(slot(1)),
);

describe(`prepared queries (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs the query compiled once with each call’s own values', async () => {
    expect(await userByEmail.executeTakeFirst(t.db, 'admin@demo.local')).toMatchObject({ email: 'admin@demo.local', role: 'admin' });
    expect(await userByEmail.executeTakeFirst(t.db, 'user@demo.local')).toMatchObject({ email: 'user@demo.local', role: 'user' });
    expect(await userByEmail.executeTakeFirst(t.db, 'nobody@demo.local')).toBeUndefined();
    expect(await usersByRole.execute(t.db, 'user', 1)).toEqual([{ email: 'newhire@demo.local' }]);
    expect(await usersByRole.execute(t.db, 'user', 5)).toEqual([{ email: 'newhire@demo.local' }, { email: 'user@demo.local' }]);
  });

  it('sees a transaction’s own writes when run inside it, and nothing of them once it is rolled back', async () => {
    const admin = (await findUserByEmail(t.db, 'admin@demo.local'))!;
    await expect(
      inTransaction(t.db, async (trx) => {
        await trx.updateTable('users').set({ email: 'renamed@demo.local' }).where('id', '=', admin.id).execute();
        expect(await userByEmail.executeTakeFirst(trx, 'renamed@demo.local')).toMatchObject({ id: admin.id });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await userByEmail.executeTakeFirst(t.db, 'renamed@demo.local')).toBeUndefined();
    expect(await userByEmail.executeTakeFirst(t.db, 'admin@demo.local')).toMatchObject({ id: admin.id });
  });

  it('refuses a value that would be compiled into the SQL text instead of bound', async () => {
    const inlined = preparedQuery((db, slot: Slots<[email: string]>) =>
      db.selectFrom('users').select('id').where('email', '=', sql.raw<string>(`'${String(slot(0))}'`)),
    );
    await expect(inlined.execute(t.db, 'admin@demo.local')).rejects.toThrow(/slot 0 is not a bound parameter/);
  });
});
