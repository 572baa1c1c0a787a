import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../contract/api-paths';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { departmentReport, userReport, type DepartmentReportRow, type UserReportRow } from '../../contract/usage-reports';
import {
  DEPARTMENT_REPORT_COLUMNS,
  REPORT_MONTHS_INVALID,
  REPORT_PAGE_SIZE,
  REPORT_YEAR_INVALID,
  USER_REPORT_COLUMNS,
} from '../../contract/usage-reports-constants';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { DOCS_PREFIX } from '../../server/http/openapi';
import { API, addUser, bearer, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';
import { isoDay, seedUsage } from './helpers/usage-seed';

/** A year well outside the dashboard's 12 months, so only the rows seeded for it are in its reports. */
const R = new Date().getUTCFullYear() - 2;

describe(`the usage reports (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const clientId = await demoClientId(t.db);
    const finance = await insertDepartment(t.db, clientId, 'Treasury');
    const audit = await insertUnit(t.db, finance.id, 'Audit');
    const payroll = await insertUnit(t.db, finance.id, 'Payroll');
    const engineering = await insertDepartment(t.db, clientId, 'Research');
    // A comma in a name: the CSV must quote it.
    const platform = await insertUnit(t.db, engineering.id, 'Platform, Core');
    const person = (name: string, department_id: string | null, unit_id: string | null) =>
      addUser(t.db, { client_id: clientId, name, email: `${name.toLowerCase()}@demo.local`, department_id, unit_id });
    const alice = await person('Alice', finance.id, audit.id);
    const bob = await person('Bob', finance.id, payroll.id);
    const carol = await person('carol', engineering.id, platform.id);
    const dave = await person('Dave', null, null);

    const other = await createOrganisation(t.db, { name: 'Other Org' });
    const erin = await addUser(t.db, { client_id: other.client.id, name: 'Erin', email: 'erin@other.test', department_id: other.department.id, unit_id: other.unit.id });
    await addUser(t.db, { client_id: other.client.id, name: 'Olga', email: 'olga@other.test', role: 'admin' });
    otherAdmin = bearer((await login(t.app, 'olga@other.test')).access_token);
    Object.assign(ids, { finance: finance.id, audit: audit.id, payroll: payroll.id, engineering: engineering.id, platform: platform.id, otherDept: other.department.id });

    const fin = { department_id: finance.id, unit_id: audit.id };
    const eng = { department_id: engineering.id, unit_id: platform.id };
    await seedUsage(t.db, [
      // The first instant of the year counts; the last instant of the year before does not.
      { user: alice, ...fin, prompt_tokens: 10, completion_tokens: 5, created_at: isoDay(R, 1, 1, '00:00:00.000') },
      { user: alice, ...fin, prompt_tokens: 10, completion_tokens: 5, created_at: isoDay(R - 1, 12, 31, '23:59:59.999') },
      { user: alice, ...fin, prompt_tokens: 10, completion_tokens: 5, created_at: isoDay(R, 1), times: 3 },
      { user: alice, ...fin, purpose: 'title', prompt_tokens: 2, completion_tokens: 1, created_at: isoDay(R, 1) },
      { user: alice, ...fin, prompt_tokens: 100, completion_tokens: 50, created_at: isoDay(R, 3, 31, '23:59:59.999') },
      { user: bob, department_id: finance.id, unit_id: payroll.id, prompt_tokens: 20, completion_tokens: 10, created_at: isoDay(R, 1), times: 2 },
      // Bob asked once while he was in Research: the department report counts it there, the user report under him.
      { user: bob, ...eng, prompt_tokens: 7, completion_tokens: 3, created_at: isoDay(R, 2) },
      { user: carol, ...eng, prompt_tokens: 1, completion_tokens: 1, created_at: isoDay(R, 12, 31, '23:59:59.999'), times: 4 },
      // A title alone is no query: carol has none in June.
      { user: carol, ...eng, purpose: 'title', prompt_tokens: 50, completion_tokens: 50, created_at: isoDay(R, 6) },
      { user: dave, prompt_tokens: 5, completion_tokens: 5, created_at: isoDay(R, 2), times: 2 },
      // The other organisation, once even naming this one's department (never written by the app): counted for it alone.
      { user: erin, department_id: other.department.id, unit_id: other.unit.id, prompt_tokens: 1000, completion_tokens: 1000, created_at: isoDay(R, 1), times: 5 },
      { user: erin, ...fin, prompt_tokens: 1000, completion_tokens: 1000, created_at: isoDay(R, 1) },
      // This year (the default year): one query.
      { user: alice, ...fin, prompt_tokens: 1, completion_tokens: 1, created_at: new Date().toISOString() },
    ]);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string>, query: Record<string, string | number> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}${path}`, headers, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  const departments = async (query: Record<string, string | number> = {}, headers = admin) => {
    const res = await get(paths.departmentReport, headers, { year: R, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(departmentReport).parse(res.json()).data;
  };
  const users = async (query: Record<string, string | number> = {}, headers = admin) => {
    const res = await get(paths.userReport, headers, { year: R, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(userReport).parse(res.json()).data;
  };
  const pairs = (items: DepartmentReportRow[]) => items.map((i) => `${i.department_name ?? '-'}/${i.unit_name ?? '-'}:${i.query_count}`);
  const people = (rows: UserReportRow[]) => rows.map((u) => `${u.user_name}:${u.query_count}:${u.total_tokens}`);

  it('is for admins: a user and the superuser get 403, and nobody signed out 401', async () => {
    for (const email of ['user@demo.local', 'super@demo.local']) {
      const headers = bearer((await login(t.app, email)).access_token);
      for (const path of [paths.departmentReport, paths.userReport]) {
        expect((await get(path, headers)).statusCode, `${email} ${path}`).toBe(403);
        expect((await get(path, headers, { export: 'true' })).statusCode, `${email} ${path} export`).toBe(403);
      }
    }
    for (const path of [paths.departmentReport, paths.userReport]) expect((await get(path, {})).statusCode).toBe(401);
  });

  it('counts queries per department and unit recorded on each usage row, biggest first', async () => {
    const report = await departments();
    // Ties (5 and 5, 2 and 2) by department name, no department last.
    expect(pairs(report.items)).toEqual(['Research/Platform, Core:5', 'Treasury/Audit:5', 'Treasury/Payroll:2', '-/-:2']);
    expect(report.items.reduce((sum, i) => sum + i.query_count, 0)).toBe(14);
    expect(report.items[1]).toEqual({
      department_id: ids.finance,
      department_name: 'Treasury',
      unit_id: ids.audit,
      unit_name: 'Audit',
      query_count: 5,
      file_count: 0,
      attachments_size: 0,
    });
    expect(report).toMatchObject({ total: 4, page: 1, limit: REPORT_PAGE_SIZE, pages: 1 });
  });

  it('counts queries and every token per person, with their current department and unit', async () => {
    const report = await users();
    expect(people(report.users)).toEqual(['Alice:5:213', 'carol:4:108', 'Bob:3:70', 'Dave:2:20']);
    const bob = report.users.find((u) => u.user_name === 'Bob');
    expect(bob).toMatchObject({ user_email: 'bob@demo.local', department_name: 'Treasury', unit_name: 'Payroll', files_count: 0, attachments_size: 0 });
    expect(report.users.find((u) => u.user_name === 'Dave')).toMatchObject({ department_name: null, unit_name: null });
    expect(report).toMatchObject({ total: 4, page: 1, limit: REPORT_PAGE_SIZE, pages: 1 });
  });

  it('filters by departments, units, year and months', async () => {
    expect(pairs((await departments({ department_ids: ids.finance })).items)).toEqual(['Treasury/Audit:5', 'Treasury/Payroll:2']);
    expect(people((await users({ department_ids: ids.finance })).users)).toEqual(['Alice:5:213', 'Bob:2:60']);
    expect(people((await users({ department_ids: ids.engineering })).users)).toEqual(['carol:4:108', 'Bob:1:10']);
    expect(pairs((await departments({ unit_ids: `${ids.platform},${ids.payroll}` })).items)).toEqual(['Research/Platform, Core:5', 'Treasury/Payroll:2']);
    expect(pairs((await departments({ department_ids: ids.finance, unit_ids: ids.audit })).items)).toEqual(['Treasury/Audit:5']);
    expect(pairs((await departments({ months: '1' })).items)).toEqual(['Treasury/Audit:4', 'Treasury/Payroll:2']);
    expect(people((await users({ months: '1' })).users)).toEqual(['Alice:4:63', 'Bob:2:60']);
    expect(pairs((await departments({ months: '12,2' })).items)).toEqual(['Research/Platform, Core:5', '-/-:2']);
    expect(people((await users({ months: '3' })).users)).toEqual(['Alice:1:150']);
    // June holds only a title: nobody asked anything.
    expect(await users({ months: '6' })).toMatchObject({ users: [], total: 0, pages: 0 });
    // The year before holds just its last instant's query.
    expect(pairs((await departments({ year: R - 1 })).items)).toEqual(['Treasury/Audit:1']);
    expect(await departments({ year: R - 2 })).toMatchObject({ items: [], total: 0 });
    // Without a year: this year, which holds one query.
    const thisYear = await get(paths.departmentReport, admin);
    expect(pairs(successEnvelope(departmentReport).parse(thisYear.json()).data.items)).toEqual(['Treasury/Audit:1']);
  });

  it("never shows another organisation's usage, and its department ids match nothing", async () => {
    expect(await departments({ department_ids: ids.otherDept })).toMatchObject({ items: [], total: 0 });
    expect(await users({ department_ids: ids.otherDept })).toMatchObject({ users: [], total: 0 });
    const theirs = await departments({}, otherAdmin);
    expect(pairs(theirs.items)).toEqual(['Other Org Operations/Logistics:5', '-/-:1']);
    expect(people((await users({}, otherAdmin)).users)).toEqual(['Erin:6:12000']);
    // Filtering by this organisation's department from the other one finds only its own (odd) row, nameless.
    expect(pairs((await departments({ department_ids: ids.finance }, otherAdmin)).items)).toEqual(['-/-:1']);
  });

  const compare = (a: string | number | null, b: string | number | null) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).toLowerCase().localeCompare(String(b).toLowerCase(), 'en');

  /** The column in the given order with empty values last, whichever the direction. */
  function expectSorted(values: (string | number | null)[], order: 'asc' | 'desc', label: string) {
    const present = values.filter((v) => v !== null);
    expect(values.slice(present.length).every((v) => v === null), `${label}: nulls last`).toBe(true);
    for (let i = 1; i < present.length; i++) {
      const step = compare(present[i - 1], present[i]);
      expect(order === 'asc' ? step <= 0 : step >= 0, `${label}: ${String(present[i - 1])} then ${String(present[i])}`).toBe(true);
    }
  }

  it('sorts on every column in both directions, empty names last, and pages stably', async () => {
    for (const column of DEPARTMENT_REPORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const all = (await departments({ sort_by: column, sort_order: order })).items;
        expectSorted(all.map((i) => i[column]), order, `department ${column} ${order}`);
        const first = await departments({ sort_by: column, sort_order: order, limit: 3 });
        const second = await departments({ sort_by: column, sort_order: order, limit: 3, page: 2 });
        expect([...first.items, ...second.items], `department ${column} ${order} pages`).toEqual(all);
      }
    }
    for (const column of USER_REPORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const all = (await users({ sort_by: column, sort_order: order })).users;
        expectSorted(all.map((u) => u[column]), order, `user ${column} ${order}`);
        const first = await users({ sort_by: column, sort_order: order, limit: 3 });
        const second = await users({ sort_by: column, sort_order: order, limit: 3, page: 2 });
        expect([...first.users, ...second.users], `user ${column} ${order} pages`).toEqual(all);
      }
    }
    expect(people((await users({ sort_by: 'user_name', sort_order: 'asc' })).users).map((p) => p.split(':')[0])).toEqual(['Alice', 'Bob', 'carol', 'Dave']);
    expect(pairs((await departments({ sort_by: 'unit_name', sort_order: 'desc' })).items)).toEqual([
      'Research/Platform, Core:5',
      'Treasury/Payroll:2',
      'Treasury/Audit:5',
      '-/-:2',
    ]);
  });

  it('answers the page asked for with the total and the number of pages', async () => {
    expect(await departments({ limit: 3 })).toMatchObject({ total: 4, page: 1, limit: 3, pages: 2 });
    const second = await users({ limit: 3, page: 2 });
    expect(second).toMatchObject({ total: 4, page: 2, limit: 3, pages: 2 });
    expect(people(second.users)).toEqual(['Dave:2:20']);
    // Past the end: no rows, still the total.
    expect(await users({ limit: 3, page: 9 })).toMatchObject({ users: [], total: 4, page: 9, pages: 2 });
  });

  it('refuses invalid filter values with 400 naming the field', async () => {
    const cases: [string, Record<string, string>, string | undefined][] = [
      [paths.departmentReport, { year: 'last' }, REPORT_YEAR_INVALID],
      [paths.departmentReport, { year: '1999' }, REPORT_YEAR_INVALID],
      [paths.userReport, { months: '13' }, REPORT_MONTHS_INVALID],
      [paths.userReport, { months: '1,x' }, REPORT_MONTHS_INVALID],
      [paths.userReport, { page: '0' }, undefined],
      [paths.departmentReport, { limit: '101' }, undefined],
      [paths.departmentReport, { sort_by: 'user_name' }, undefined],
      [paths.userReport, { sort_by: 'file_count' }, undefined],
      [paths.userReport, { sort_order: 'up' }, undefined],
      [paths.userReport, { export: 'yes' }, undefined],
    ];
    for (const [path, query, message] of cases) {
      const res = await get(path, admin, query);
      const field = Object.keys(query)[0];
      expect(res.statusCode, `${path} ${JSON.stringify(query)}`).toBe(400);
      const body = errorEnvelope.parse(res.json());
      expect(Object.keys(body.fields ?? {}), JSON.stringify(query)).toEqual([field]);
      expect(body.fields?.[field]).toContain(field);
      if (message) expect(body.fields?.[field]).toBe(message);
    }
  });

  it('documents both reports in the OpenAPI document as JSON or a CSV download, with the filter parameters', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` })).json();
    for (const path of [paths.departmentReport, paths.userReport]) {
      const get = doc.paths[`${API}${path}`].get as { parameters: { name: string }[]; responses: Record<string, { content: object }> };
      expect(Object.keys(get.responses['200'].content), path).toEqual(['application/json', 'text/csv']);
      expect(get.parameters.map((p) => p.name).sort(), path).toEqual(
        ['department_ids', 'export', 'limit', 'months', 'page', 'sort_by', 'sort_order', 'unit_ids', 'year'],
      );
    }
    for (const path of [paths.dashboardGenerate, paths.dashboardLatest]) expect(Object.keys(doc.paths[`${API}${path}`]), path).toHaveLength(1);
  });

  const csvLines = (res: LightMyRequestResponse) => res.body.trimEnd().split('\n');

  it('exports the whole department report as CSV, in the same order, sizes in MB and N/A for no department', async () => {
    const res = await get(paths.departmentReport, admin, { year: R, months: '12,1,2', export: 'true', limit: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="department-report-${R}-01-02-12.csv"`);
    expect(csvLines(res)).toEqual([
      'Department,Unit,Queries,Files,Size (MB)',
      'Research,"Platform, Core",5,0,0.00',
      'Treasury,Audit,4,0,0.00',
      'Treasury,Payroll,2,0,0.00',
      'N/A,N/A,2,0,0.00',
    ]);
  });

  it('exports the whole user report as CSV with the filter and sort applied', async () => {
    const res = await get(paths.userReport, admin, { year: R, export: 'true', sort_by: 'user_email', sort_order: 'asc', department_ids: `${ids.finance},${ids.engineering}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="user-report-${R}.csv"`);
    expect(csvLines(res)).toEqual([
      'User,Email,Department,Unit,Queries,Files,Tokens,Size (MB)',
      'Alice,alice@demo.local,Treasury,Audit,5,0,213,0.00',
      'Bob,bob@demo.local,Treasury,Payroll,3,0,70,0.00',
      'carol,carol@demo.local,Research,"Platform, Core",4,0,108,0.00',
    ]);
    const empty = await get(paths.userReport, admin, { year: R, months: '6', export: 'true' });
    expect(csvLines(empty)).toEqual(['User,Email,Department,Unit,Queries,Files,Tokens,Size (MB)']);
  });
});

describe(`the usage report export of a large organisation (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('streams every row of more than one read page, in order', async () => {
    const org = await createOrganisation(t.db, { name: 'Big Org' });
    const admin = await addUser(t.db, { client_id: org.client.id, name: 'Bea', email: 'bea@big.test', role: 'admin' });
    const count = 1234;
    const names = Array.from({ length: count }, (_, i) => `Dept ${String(i).padStart(4, '0')}`);
    const departmentRows = names.map((name, i) => ({ id: `big-dept-${i}`, client_id: org.client.id, name, created_at: new Date().toISOString() }));
    for (let i = 0; i < count; i += 200) await t.db.insertInto('departments').values(departmentRows.slice(i, i + 200)).execute();
    await seedUsage(t.db, departmentRows.map((d) => ({ user: admin, department_id: d.id, created_at: isoDay(R, 5) })));
    const headers = bearer((await login(t.app, 'bea@big.test')).access_token);
    const res = await t.app.inject({ method: 'GET', url: `${API}${paths.departmentReport}`, headers, query: { year: String(R), export: 'true', sort_by: 'department_name', sort_order: 'asc' } });
    expect(res.statusCode).toBe(200);
    const lines = res.body.trimEnd().split('\n');
    expect(lines).toHaveLength(count + 1);
    expect(lines.slice(1)).toEqual(names.map((name) => `${name},N/A,1,0,0.00`));
  });
});

describe(`the usage reports count files and their size (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const MB = 1024 * 1024;

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const clientId = await demoClientId(t.db);
    const dept = await insertDepartment(t.db, clientId, 'Legal');
    const contracts = await insertUnit(t.db, dept.id, 'Contracts');
    const filings = await insertUnit(t.db, dept.id, 'Filings');
    const person = (name: string, unit_id: string) =>
      addUser(t.db, { client_id: clientId, name, email: `${name.toLowerCase()}@files.test`, department_id: dept.id, unit_id });
    const fay = await person('Fay', contracts.id);
    const gus = await person('Gus', filings.id);
    const other = await createOrganisation(t.db, { name: 'Files Elsewhere' });
    const hal = await addUser(t.db, { client_id: other.client.id, name: 'Hal', email: 'hal@elsewhere.test', department_id: other.department.id, unit_id: other.unit.id });
    await seedUsage(t.db, [{ user: fay, department_id: dept.id, unit_id: contracts.id, prompt_tokens: 3, completion_tokens: 2, created_at: isoDay(R, 1), times: 2 }]);

    // Rows as the documents service stores them: the owner's organisation, department and unit at upload.
    let n = 0;
    const file = (owner: { id: string; client_id: string | null; department_id: string | null; unit_id: string | null }, size: number, created_at: string) => {
      n += 1;
      return {
        id: `report-doc-${n}`,
        user_id: owner.id,
        client_id: owner.client_id,
        department_id: owner.department_id,
        unit_id: owner.unit_id,
        conversation_id: null,
        filename: `file-${n}.pdf`,
        extension: '.pdf',
        mime: 'application/pdf',
        size,
        origin: 'upload' as const,
        storage_key: `2020-01/00000000-0000-0000-0000-${String(n).padStart(12, '0')}`,
        file_key: `report-file-key-${n}`,
        status: 'ready' as const,
        note: null,
        error: null,
        created_at,
        updated_at: created_at,
      };
    };
    await t.db
      .insertInto('documents')
      .values([
        file(fay, 1.5 * MB, isoDay(R, 1)),
        file(fay, 0.5 * MB, isoDay(R, 1, 20)),
        // Gus asked nothing: his file alone puts him (and his unit) in the reports.
        file(gus, 1 * MB, isoDay(R, 2)),
        // Outside the year, and another organisation's: never counted here.
        file(fay, 7 * MB, isoDay(R - 1, 12, 31, '23:59:59.999')),
        file(hal, 9 * MB, isoDay(R, 1)),
      ])
      .execute();
  });
  afterAll(() => t.close());

  const report = async (path: string, query: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}${path}`, headers: admin, query: { year: String(R), ...query } });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('per department and unit, and per person: file count and bytes of the period, files-only groups included', async () => {
    const departmentsRes = successEnvelope(departmentReport).parse((await report(paths.departmentReport, { sort_by: 'file_count', sort_order: 'desc' })).json()).data;
    expect(departmentsRes.items.map((i) => [i.unit_name, i.query_count, i.file_count, i.attachments_size])).toEqual([
      ['Contracts', 2, 2, 2 * MB],
      ['Filings', 0, 1, 1 * MB],
    ]);
    const usersRes = successEnvelope(userReport).parse((await report(paths.userReport, { sort_by: 'attachments_size', sort_order: 'asc' })).json()).data;
    expect(usersRes.users.map((u) => [u.user_name, u.query_count, u.files_count, u.total_tokens, u.attachments_size])).toEqual([
      ['Gus', 0, 1, 0, 1 * MB],
      ['Fay', 2, 2, 10, 2 * MB],
    ]);
    // Months filter the files by when they were stored.
    const february = successEnvelope(userReport).parse((await report(paths.userReport, { months: '2' })).json()).data;
    expect(february.users.map((u) => [u.user_name, u.files_count])).toEqual([['Gus', 1]]);
  });

  it('exports sizes in MB', async () => {
    const res = await report(paths.departmentReport, { export: 'true' });
    expect(res.body.trimEnd().split('\n')).toEqual(['Department,Unit,Queries,Files,Size (MB)', 'Legal,Contracts,2,2,2.00', 'Legal,Filings,0,1,1.00']);
  });
});
