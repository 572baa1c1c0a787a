import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { department, departmentDeletion, departmentList, unit, type Department } from '../../contract/departments';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { findUserById } from '../../server/db/repositories/users';
import { isUniqueViolation } from '../../server/db/unique-violation';
import { API, addUser, bearer, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const UNIT_NAME_TAKEN = 'A unit with this name already exists in this department';

describe(`department and unit administration (${dbKind})`, () => {
  let t: TestApp;
  let demo: string;
  let admin: Record<string, string>;
  /** Organisation B: its admin, and its seeded department with one unit and one member. */
  let otherAdmin: Record<string, string>;
  let other: Awaited<ReturnType<typeof createOrganisation>>;
  let otherMemberId: string;
  beforeAll(async () => {
    t = await createTestApp();
    demo = await demoClientId(t.db);
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    other = await createOrganisation(t.db, { name: 'Other Org' });
    await addUser(t.db, { client_id: other.client.id, name: 'Olga Other', email: 'olga@other.test', role: 'admin' });
    otherMemberId = (
      await addUser(t.db, {
        client_id: other.client.id,
        name: 'Oscar Other',
        email: 'oscar@other.test',
        department_id: other.department.id,
        unit_id: other.unit.id,
      })
    ).id;
    otherAdmin = bearer((await login(t.app, 'olga@other.test')).access_token);
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, headers = admin, payload?: object) =>
    t.app.inject({ method, url: `${API}/departments${url}`, headers, payload });
  const dataOf = <T>(res: LightMyRequestResponse, schema: { parse: (v: unknown) => { data: T } }): T => {
    expect(res.statusCode, res.body).toBe(200);
    return schema.parse(res.json()).data;
  };
  const refused = (res: LightMyRequestResponse, status: number, detail: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };
  const create = async (name: string, headers = admin) => dataOf(await call('POST', '/', headers, { name }), successEnvelope(department));
  const renameUnit = async (departmentId: string, unitId: string, name: string, headers = admin) =>
    dataOf(await call('PUT', `/${departmentId}/units/${unitId}`, headers, { name }), successEnvelope(unit));
  const addUnitTo = async (departmentId: string, name: string, headers = admin) =>
    dataOf(await call('POST', `/${departmentId}/units`, headers, { name }), successEnvelope(unit));
  const all = async (headers = admin) =>
    dataOf(await call('GET', '/?paginate=false', headers), successEnvelope(departmentList)).departments;
  const found = async (id: string, headers = admin): Promise<Department | undefined> => (await all(headers)).find((d) => d.id === id);
  /** Organisation B as its own admin sees it. */
  const otherSnapshot = () => all(otherAdmin);

  it('is for admins: a user and the superuser get 403 on every change, and nobody signed out 401', async () => {
    const target = await create('Role Check');
    const targetUnit = await addUnitTo(target.id, 'Role Unit');
    const changes: [Method, string, object?][] = [
      ['POST', '/', { name: 'Taken over' }],
      ['PUT', `/${target.id}`, { name: 'Taken over' }],
      ['DELETE', `/${target.id}`],
      ['POST', `/${target.id}/units`, { name: 'Taken over' }],
      ['PUT', `/${target.id}/units/${targetUnit.id}`, { name: 'Taken over' }],
      ['DELETE', `/${target.id}/units/${targetUnit.id}`],
    ];
    for (const email of ['user@demo.local', 'super@demo.local']) {
      const headers = bearer((await login(t.app, email)).access_token);
      for (const [method, url, payload] of changes) {
        refused(await call(method, url, headers, payload), 403, 'You do not have permission to do this');
      }
    }
    for (const [method, url, payload] of changes) expect((await call(method, url, {}, payload)).statusCode).toBe(401);
    expect(await found(target.id)).toEqual({ ...target, units: [targetUnit] });
    // The list stays open to every signed-in role (the Profile reads it).
    const user = bearer((await login(t.app, 'user@demo.local')).access_token);
    expect((await found(target.id, user))?.name).toBe('Role Check');
  });

  it('creates a department, trimmed, with no units, and lists it', async () => {
    const res = await call('POST', '/', admin, { name: '  Legal Affairs \n' });
    expect(res.json().message).toBe('Department created successfully');
    const created = dataOf(res, successEnvelope(department));
    expect(created).toEqual({ id: expect.any(String), name: 'Legal Affairs', units: [] });
    expect(await found(created.id)).toEqual(created);
    expect((await found(created.id, otherAdmin))).toBeUndefined();
  });

  it('refuses a missing, empty, non-text or too long name with the sentences a person reads', async () => {
    const cases: [object, string][] = [
      [{}, 'Department name is required'],
      [{ name: '' }, 'Department name is required'],
      [{ name: ' \t\n ' }, 'Department name is required'],
      [{ name: null }, 'Department name is required'],
      [{ name: 7 }, 'Department name must be text'],
      [{ name: 'x'.repeat(101) }, 'Department name cannot be more than 100 characters'],
    ];
    const target = await create('Validation Target');
    for (const [payload, sentence] of cases) {
      for (const [method, url] of [['POST', '/'], ['PUT', `/${target.id}`]] as const) {
        const res = await call(method, url, admin, payload);
        refused(res, 400, sentence);
        expect(errorEnvelope.parse(res.json()).fields).toEqual({ name: sentence });
      }
      const unitRes = await call('POST', `/${target.id}/units`, admin, payload);
      refused(unitRes, 400, sentence.replace('Department', 'Unit'));
    }
    // 100 characters after trimming is within the limit.
    expect((await create(` ${'d'.repeat(100)} `)).name).toHaveLength(100);
    expect((await addUnitTo(target.id, ` ${'u'.repeat(100)} `)).name).toHaveLength(100);
    expect(await found(target.id)).toMatchObject({ name: 'Validation Target', units: [{ name: 'u'.repeat(100) }] });
  });

  it('keeps department names unique within the organisation, whatever their case, on both databases', async () => {
    await create('Research');
    for (const name of ['Research', ' research ', 'RESEARCH']) {
      refused(await call('POST', '/', admin, { name }), 409, 'A department with this name already exists');
    }
    // Letters beyond ASCII fold too (SQLite's lower() alone would not).
    await create('Équipe Ärzte');
    refused(await call('POST', '/', admin, { name: 'équipe ärzte' }), 409, 'A department with this name already exists');
    // Another organisation may use the same name, and the demo organisation the other's.
    expect((await create('Research', otherAdmin)).name).toBe('Research');
    expect((await create('other org operations')).name).toBe('other org operations');
    expect((await all()).filter((d) => d.name.toLowerCase() === 'research')).toHaveLength(1);
  });

  it('answers one success and 409s to the same name sent at once, never a 500', async () => {
    const names = ['Concurrent', 'CONCURRENT', 'concurrent', 'Concurrent ', ' concurrent'];
    const results = await Promise.all(names.map((name) => call('POST', '/', admin, { name })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.statusCode === 409)) {
      expect(errorEnvelope.parse(res.json()).detail).toBe('A department with this name already exists');
    }
    const target = await create('Concurrent Units');
    const units = await Promise.all(['Desk', 'desk', 'DESK'].map((name) => call('POST', `/${target.id}/units`, admin, { name })));
    expect(units.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it('has unique indexes behind the check, read as unique violations on both databases', async () => {
    await create('Indexed');
    const clash = await insertDepartment(t.db, demo, 'INDEXED').catch((err: unknown) => err);
    expect(isUniqueViolation(clash)).toBe(true);
    const target = await create('Indexed Units');
    await addUnitTo(target.id, 'Cell');
    const unitClash = await insertUnit(t.db, target.id, 'cELL').catch((err: unknown) => err);
    expect(isUniqueViolation(unitClash)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('renames a department, keeping its units, and allows a change of case of its own name', async () => {
    const target = await create('Facilities');
    const desk = await addUnitTo(target.id, 'Help Desk');
    const res = await call('PUT', `/${target.id}`, admin, { name: ' Buildings ' });
    expect(res.json().message).toBe('Department updated successfully');
    expect(dataOf(res, successEnvelope(department))).toEqual({ id: target.id, name: 'Buildings', units: [desk] });
    expect(dataOf(await call('PUT', `/${target.id}`, admin, { name: 'BUILDINGS' }), successEnvelope(department)).name).toBe('BUILDINGS');
    await create('Security');
    refused(await call('PUT', `/${target.id}`, admin, { name: 'security' }), 409, 'A department with this name already exists');
    expect((await found(target.id))?.name).toBe('BUILDINGS');
  });

  it("answers 404 for an unknown id and for another organisation's department or unit, and changes nothing of it", async () => {
    const before = await otherSnapshot();
    const theirs = other.department.id;
    const theirUnit = other.unit.id;
    const mine = await create('Mine Only');
    const myUnit = await addUnitTo(mine.id, 'My Unit');
    const departmentMissing: [Method, string, object?][] = [
      ['PUT', `/${theirs}`, { name: 'Taken over' }],
      ['DELETE', `/${theirs}`],
      ['POST', `/${theirs}/units`, { name: 'Taken over' }],
      ['PUT', `/${theirs}/units/${theirUnit}`, { name: 'Taken over' }],
      ['DELETE', `/${theirs}/units/${theirUnit}`],
      ['PUT', '/no-such-department', { name: 'Nothing' }],
      ['DELETE', '/no-such-department'],
      ['POST', '/no-such-department/units', { name: 'Nothing' }],
    ];
    for (const [method, url, payload] of departmentMissing) refused(await call(method, url, admin, payload), 404, 'Department not found');
    // Their name clashes with one of ours: still 404, the clash of another organisation is no concern of ours.
    refused(await call('PUT', `/${theirs}`, admin, { name: 'Mine Only' }), 404, 'Department not found');
    // Their unit through our department, and an unknown unit: the unit is not found.
    const unitMissing: [Method, string, object?][] = [
      ['PUT', `/${mine.id}/units/${theirUnit}`, { name: 'Taken over' }],
      ['DELETE', `/${mine.id}/units/${theirUnit}`],
      ['PUT', `/${mine.id}/units/no-such-unit`, { name: 'Nothing' }],
      ['DELETE', `/${mine.id}/units/no-such-unit`],
    ];
    for (const [method, url, payload] of unitMissing) refused(await call(method, url, admin, payload), 404, 'Unit not found');
    // And the other way round: B's admin cannot touch ours.
    refused(await call('PUT', `/${mine.id}`, otherAdmin, { name: 'Taken over' }), 404, 'Department not found');
    refused(await call('DELETE', `/${mine.id}/units/${myUnit.id}`, otherAdmin), 404, 'Department not found');
    refused(await call('DELETE', `/${mine.id}`, otherAdmin), 404, 'Department not found');

    expect(await otherSnapshot()).toEqual(before);
    expect(await found(mine.id)).toEqual({ ...mine, units: [myUnit] });
    expect(await findUserById(t.db, otherMemberId)).toMatchObject({ department_id: theirs, unit_id: theirUnit });
  });

  it('adds, renames and deletes units, unique within their department whatever the case', async () => {
    const finance = await create('Treasury');
    const audit = await create('Audit');
    const added = await call('POST', `/${finance.id}/units`, admin, { name: '  Cash Management ' });
    expect(added.json().message).toBe('Unit created successfully');
    const cash = dataOf(added, successEnvelope(unit));
    expect(cash).toEqual({ id: expect.any(String), name: 'Cash Management' });
    refused(await call('POST', `/${finance.id}/units`, admin, { name: 'CASH management' }), 409, UNIT_NAME_TAKEN);
    // The same name in another department is another unit.
    await addUnitTo(audit.id, 'Cash Management');
    const risk = await addUnitTo(finance.id, 'Risk');

    const renamed = await call('PUT', `/${finance.id}/units/${cash.id}`, admin, { name: ' Liquidity ' });
    expect(renamed.json().message).toBe('Unit updated successfully');
    expect(dataOf(renamed, successEnvelope(unit))).toEqual({ id: cash.id, name: 'Liquidity' });
    expect((await renameUnit(finance.id, cash.id, 'LIQUIDITY')).name).toBe('LIQUIDITY');
    refused(await call('PUT', `/${finance.id}/units/${cash.id}`, admin, { name: 'risk' }), 409, UNIT_NAME_TAKEN);
    // A unit is reached through its own department only.
    refused(await call('PUT', `/${audit.id}/units/${cash.id}`, admin, { name: 'Moved' }), 404, 'Unit not found');
    refused(await call('DELETE', `/${audit.id}/units/${cash.id}`, admin), 404, 'Unit not found');
    expect((await found(finance.id))?.units).toEqual([{ id: cash.id, name: 'LIQUIDITY' }, risk]);

    const deleted = await call('DELETE', `/${finance.id}/units/${risk.id}`, admin);
    expect(deleted.json().message).toBe('Unit deleted successfully');
    expect(dataOf(deleted, successEnvelope(departmentDeletion))).toEqual({ message: 'Unit deleted successfully', unassigned_users: 0 });
    refused(await call('DELETE', `/${finance.id}/units/${risk.id}`, admin), 404, 'Unit not found');
    expect((await found(finance.id))?.units.map((u) => u.name)).toEqual(['LIQUIDITY']);
  });

  it('unassigns the people of a deleted unit (they are sent to Profile again) and no one else', async () => {
    const ops = await create('Field Operations');
    const north = await addUnitTo(ops.id, 'North');
    const south = await addUnitTo(ops.id, 'South');
    const inNorth = await addUser(t.db, { client_id: demo, name: 'Nora North', email: 'nora@demo.local', department_id: ops.id, unit_id: north.id });
    const inNorth2 = await addUser(t.db, { client_id: demo, name: 'Ned North', email: 'ned@demo.local', department_id: ops.id, unit_id: north.id });
    const inSouth = await addUser(t.db, { client_id: demo, name: 'Sue South', email: 'sue@demo.local', department_id: ops.id, unit_id: south.id });
    const noUnit = await addUser(t.db, { client_id: demo, name: 'Una Nounit', email: 'una@demo.local', department_id: ops.id });

    const res = await call('DELETE', `/${ops.id}/units/${north.id}`, admin);
    expect(dataOf(res, successEnvelope(departmentDeletion))).toEqual({ message: 'Unit deleted successfully', unassigned_users: 2 });
    for (const person of [inNorth, inNorth2]) {
      expect(await findUserById(t.db, person.id)).toMatchObject({ department_id: null, unit_id: null });
    }
    expect(await findUserById(t.db, inSouth.id)).toMatchObject({ department_id: ops.id, unit_id: south.id });
    expect(await findUserById(t.db, noUnit.id)).toMatchObject({ department_id: ops.id, unit_id: null });
    // What the SPA reads to send them to Profile.
    const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: bearer((await login(t.app, 'nora@demo.local')).access_token) });
    expect(me.json().data).toMatchObject({ department_id: null, unit_id: null });
    expect((await found(ops.id))?.units).toEqual([south]);
  });

  it('deletes a department with its units, unassigns its people, and leaves organisation B untouched', async () => {
    const before = await otherSnapshot();
    const sales = await create('Sales');
    const emea = await addUnitTo(sales.id, 'EMEA');
    const apac = await addUnitTo(sales.id, 'APAC');
    const keep = await create('Sales Support');
    const people = [
      await addUser(t.db, { client_id: demo, name: 'Emma Emea', email: 'emma@demo.local', department_id: sales.id, unit_id: emea.id }),
      await addUser(t.db, { client_id: demo, name: 'Ali Apac', email: 'ali@demo.local', department_id: sales.id, unit_id: apac.id }),
      await addUser(t.db, { client_id: demo, name: 'Sam Sales', email: 'sam@demo.local', department_id: sales.id }),
    ];
    const elsewhere = await addUser(t.db, { client_id: demo, name: 'Kim Keep', email: 'kim@demo.local', department_id: keep.id });

    const res = await call('DELETE', `/${sales.id}`, admin);
    expect(res.json().message).toBe('Department deleted successfully');
    expect(dataOf(res, successEnvelope(departmentDeletion))).toEqual({ message: 'Department deleted successfully', unassigned_users: 3 });
    for (const person of people) {
      expect(await findUserById(t.db, person.id)).toMatchObject({ department_id: null, unit_id: null });
    }
    expect(await findUserById(t.db, elsewhere.id)).toMatchObject({ department_id: keep.id });
    expect(await found(sales.id)).toBeUndefined();
    expect(await t.db.selectFrom('units').select('id').where('department_id', '=', sales.id).execute()).toEqual([]);
    refused(await call('DELETE', `/${sales.id}`, admin), 404, 'Department not found');
    refused(await call('POST', `/${sales.id}/units`, admin, { name: 'Late' }), 404, 'Department not found');
    // The name is free again.
    expect((await create('sales')).name).toBe('sales');

    expect(await otherSnapshot()).toEqual(before);
    expect(await findUserById(t.db, otherMemberId)).toMatchObject({ department_id: other.department.id, unit_id: other.unit.id });
  });

  it("lets organisation B's admin manage B's departments, and only those", async () => {
    const before = await all();
    const hub = await create('B Hub', otherAdmin);
    const desk = await addUnitTo(hub.id, 'Desk', otherAdmin);
    expect((await renameUnit(hub.id, desk.id, 'Front Desk', otherAdmin)).name).toBe('Front Desk');
    expect(dataOf(await call('DELETE', `/${hub.id}`, otherAdmin), successEnvelope(departmentDeletion)).unassigned_users).toBe(0);
    expect(await all()).toEqual(before);
  });
});
