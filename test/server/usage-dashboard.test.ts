import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { dashboard, type Dashboard } from '../../contract/usage-reports';
import { DASHBOARD_GENERATED, DASHBOARD_REFRESH_MS } from '../../contract/usage-reports-constants';
import type { UserRecord } from '../../server/db/repositories/users';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { API, addUser, bearer, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';
import { isoDay, seedUsage } from './helpers/usage-seed';

const now = new Date();
const Y = now.getUTCFullYear();
/** This month, 1..12 (isoDay carries months below 1 into the year before). */
const M = now.getUTCMonth() + 1;
/** 'YYYY-MM' of the month `back` months before this one. */
const monthBack = (back: number) => isoDay(Y, M - back).slice(0, 7);
/** The first instant of a month: already past for this month whenever the test runs. */
const firstOf = (back: number) => isoDay(Y, M - back, 1, '00:00:00.000');

describe(`the usage dashboard (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let alice: UserRecord;

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const clientId = await demoClientId(t.db);
    const department = async (name: string) => {
      const d = await insertDepartment(t.db, clientId, name);
      return { department_id: d.id, unit_id: (await insertUnit(t.db, d.id, `${name} Desk`)).id };
    };
    const [treasury, research, ops, quality] = [await department('Treasury'), await department('Research'), await department('Ops'), await department('Quality')];
    const person = (name: string, assigned: { department_id: string; unit_id: string } | null) =>
      addUser(t.db, { client_id: clientId, name, email: `${name.toLowerCase()}@demo.local`, ...(assigned ?? {}) });
    alice = await person('Alice', treasury);
    const bob = await person('Bob', research);
    const carol = await person('carol', treasury);
    const dave = await person('Dave', null);
    const emma = await person('Emma', ops);
    const fred = await person('Fred', quality);
    const other = await createOrganisation(t.db, { name: 'Other Org' });
    const erin = await addUser(t.db, { client_id: other.client.id, name: 'Erin', email: 'erin@other.test', department_id: other.department.id, unit_id: other.unit.id });
    await addUser(t.db, { client_id: other.client.id, name: 'Olga', email: 'olga@other.test', role: 'admin' });
    otherAdmin = bearer((await login(t.app, 'olga@other.test')).access_token);

    await seedUsage(t.db, [
      // This month: departments Treasury 5, Research 2, Ops 2, Quality 1; Dave's 4 have no department.
      { user: alice, ...treasury, created_at: firstOf(0), times: 3 },
      { user: carol, ...treasury, created_at: firstOf(0), times: 2 },
      { user: bob, ...research, created_at: firstOf(0), times: 1 },
      // Bob's row names Ops, where he was then; he is in Research now.
      { user: bob, ...ops, created_at: firstOf(0), times: 1 },
      { user: emma, ...ops, created_at: firstOf(0), times: 1 },
      { user: fred, ...quality, created_at: firstOf(0), times: 1 },
      { user: dave, created_at: firstOf(0), times: 4 },
      // Titles are no queries.
      { user: fred, ...quality, purpose: 'title', created_at: firstOf(0), times: 10 },
      // Last month two people; the oldest month shown one; the month before it is out of the window.
      { user: alice, ...treasury, created_at: firstOf(1), times: 2 },
      { user: bob, ...research, created_at: firstOf(1) },
      { user: carol, ...treasury, created_at: firstOf(11) },
      { user: dave, created_at: isoDay(Y, M - 12, 28) },
      { user: erin, department_id: other.department.id, unit_id: other.unit.id, created_at: firstOf(0), times: 50 },
      { user: erin, department_id: other.department.id, unit_id: other.unit.id, created_at: firstOf(1), times: 1 },
    ]);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', path: string, headers: Record<string, string>) => t.app.inject({ method, url: `${API}${path}`, headers });
  const dashboardOf = async (method: 'GET' | 'POST', headers = admin): Promise<Dashboard> => {
    const res = await call(method, method === 'GET' ? paths.dashboardLatest : paths.dashboardGenerate, headers);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(dashboard).parse(res.json()).data;
  };
  const snapshotAge = async (ms: number) => {
    const clientId = await demoClientId(t.db);
    await t.db.updateTable('dashboard_snapshots').set({ generated_at: new Date(Date.now() - ms).toISOString() }).where('client_id', '=', clientId).execute();
  };

  it('is for admins: a user and the superuser get 403, and nobody signed out 401', async () => {
    for (const email of ['user@demo.local', 'super@demo.local']) {
      const headers = bearer((await login(t.app, email)).access_token);
      expect((await call('GET', paths.dashboardLatest, headers)).statusCode, email).toBe(403);
      expect((await call('POST', paths.dashboardGenerate, headers)).statusCode, email).toBe(403);
    }
    expect((await call('GET', paths.dashboardLatest, {})).statusCode).toBe(401);
    expect((await call('POST', paths.dashboardGenerate, {})).statusCode).toBe(401);
  });

  it('counts distinct people per month over 12 months, oldest first, zero-filled', async () => {
    const before = Date.now();
    const res = await call('POST', paths.dashboardGenerate, admin);
    expect(res.json().message).toBe(DASHBOARD_GENERATED);
    const data = successEnvelope(dashboard).parse(res.json()).data;
    expect(data.user_month.map((m) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => monthBack(11 - i)));
    const counts = Object.fromEntries(data.user_month.map((m) => [m.month, m.count]));
    expect(counts[monthBack(0)]).toBe(6);
    expect(counts[monthBack(1)]).toBe(2);
    expect(counts[monthBack(11)]).toBe(1);
    expect(data.user_month.filter((m) => m.count > 0)).toHaveLength(3);
    expect(Date.parse(data.generated_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(data.generated_at)).toBeLessThanOrEqual(Date.now());
    expect(data.generated_at).toBe(new Date(data.generated_at).toISOString());
  });

  it("shows this month's top 3 departments and top 5 people, biggest first, ties by name", async () => {
    const data = await dashboardOf('POST');
    expect(data.top3_dept).toEqual([{ Treasury: 5 }, { Ops: 2 }, { Quality: 1 }]);
    expect(data.top5_user).toEqual([
      { name: 'Dave', department_name: null, unit_name: null, query_count: 4 },
      { name: 'Alice', department_name: 'Treasury', unit_name: 'Treasury Desk', query_count: 3 },
      { name: 'Bob', department_name: 'Research', unit_name: 'Research Desk', query_count: 2 },
      { name: 'carol', department_name: 'Treasury', unit_name: 'Treasury Desk', query_count: 2 },
      { name: 'Emma', department_name: 'Ops', unit_name: 'Ops Desk', query_count: 1 },
    ]);
  });

  it('counts nothing of another organisation, and shows that one only its own', async () => {
    const theirs = await dashboardOf('POST', otherAdmin);
    expect(theirs.top3_dept).toEqual([{ 'Other Org Operations': 50 }]);
    expect(theirs.top5_user.map((u) => u.name)).toEqual(['Erin']);
    expect(theirs.user_month.slice(-2).map((m) => m.count)).toEqual([1, 1]);
    const ours = await dashboardOf('GET');
    expect(ours.top5_user.map((u) => u.name)).not.toContain('Erin');
    expect(ours.user_month.at(-1)?.count).toBe(6);
  });

  it('answers the stored dashboard while it is fresh, and computes a new one when it is stale', async () => {
    const generated = await dashboardOf('POST');
    await seedUsage(t.db, [{ user: alice, created_at: firstOf(0), times: 10 }]);
    // Fresh: the same snapshot, the new queries not yet in it.
    await snapshotAge(DASHBOARD_REFRESH_MS - 30_000);
    const fresh = await dashboardOf('GET');
    expect(fresh.top5_user[0]).toMatchObject({ name: 'Dave', query_count: 4 });
    expect(fresh.user_month).toEqual(generated.user_month);
    // Stale: computed again and stored.
    await snapshotAge(DASHBOARD_REFRESH_MS + 1_000);
    const stale = await dashboardOf('GET');
    expect(stale.top5_user[0]).toMatchObject({ name: 'Alice', query_count: 13 });
    expect(Date.now() - Date.parse(stale.generated_at)).toBeLessThan(DASHBOARD_REFRESH_MS);
    expect((await dashboardOf('GET')).generated_at).toBe(stale.generated_at);
    // Generating always computes anew.
    const again = await dashboardOf('POST');
    expect(Date.parse(again.generated_at)).toBeGreaterThanOrEqual(Date.parse(stale.generated_at));
  });

  it('computes one when the organisation has none yet', async () => {
    const org = await createOrganisation(t.db, { name: 'New Org' });
    await addUser(t.db, { client_id: org.client.id, name: 'Nia', email: 'nia@new.test', role: 'admin' });
    const headers = bearer((await login(t.app, 'nia@new.test')).access_token);
    const before = await t.db.selectFrom('dashboard_snapshots').select('client_id').where('client_id', '=', org.client.id).execute();
    expect(before).toEqual([]);
    const data = await dashboardOf('GET', headers);
    expect(data.user_month).toHaveLength(12);
    expect(data.user_month.every((m) => m.count === 0)).toBe(true);
    expect(data).toMatchObject({ top3_dept: [], top5_user: [] });
    const stored = await t.db.selectFrom('dashboard_snapshots').select('generated_at').where('client_id', '=', org.client.id).execute();
    expect(stored).toEqual([{ generated_at: data.generated_at }]);
  });
});
