import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentList } from '../../contract/departments';
import { OTHER_ORGANISATION_DEPARTMENTS } from '../../contract/departments-constants';
import { ORGANISATION_NOT_FOUND } from '../../contract/users-constants';
import { successEnvelope } from '../../contract/envelope';
import { insertDepartment } from '../../server/db/repositories/departments';
import { bearer, createOrganisation, demoClientId, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('GET /departments/', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    await createOrganisation(t.db, { name: 'Other Org' });
    const demo = await demoClientId(t.db);
    // Names that need escaping in LIKE, and more rows than one page.
    for (const name of ['R&D 100%', 'Sales_EMEA', 'Legal', 'Marketing', 'Operations', 'Procurement', 'Quality', 'Support', 'Training']) {
      await insertDepartment(t.db, demo, name);
    }
    token = (await login(t.app, 'user@demo.local')).access_token;
  });
  afterAll(() => t.close());

  const list = async (query = '', auth: Record<string, string> = bearer(token)) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/departments/${query}`, headers: auth });
    return { res, body: res.statusCode === 200 ? successEnvelope(departmentList).parse(res.json()).data : undefined };
  };

  it('lists only the own organisation, by name, with units, 10 per page', async () => {
    const { res, body } = await list();
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({ page: 1, page_size: 10, total: 12, total_pages: 2 });
    const names = body!.departments.map((d) => d.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('Other Org Operations');
    expect(body!.departments.find((d) => d.name === 'Engineering')!.units.map((u) => u.name)).toEqual(['Applications', 'Platform']);

    const page2 = await list('?page=2');
    expect(page2.body!.departments).toHaveLength(2);
    expect(page2.body!.page).toBe(2);
  });

  it('returns every department with paginate=false', async () => {
    const { body } = await list('?paginate=false');
    expect(body!.departments).toHaveLength(12);
    expect(body).toMatchObject({ page: 1, total: 12, total_pages: 1 });
  });

  it('searches names case-insensitively, treating % and _ literally', async () => {
    expect((await list('?search=ENGIN')).body!.departments.map((d) => d.name)).toEqual(['Engineering']);
    expect((await list('?search=100%25')).body!.departments.map((d) => d.name)).toEqual(['R&D 100%']);
    expect((await list('?search=s_e')).body!.departments.map((d) => d.name)).toEqual(['Sales_EMEA']);
    expect((await list('?search=zzz')).body).toMatchObject({ departments: [], total: 0, total_pages: 0 });
  });

  it('works without the trailing slash too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/departments?paginate=false', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
  });

  it('rejects bad query values with 400 and requires authentication', async () => {
    expect((await list('?page=0')).res.statusCode).toBe(400);
    expect((await list('?paginate=maybe')).res.statusCode).toBe(400);
    const anon = await list('', {});
    expect(anon.res.statusCode).toBe(401);
    expect(errorDetail(anon.res)).toBe('Not authenticated');
  });
});

describe('GET /departments/ by organisation (the request scope)', () => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof createOrganisation>>;
  let demo: string;
  beforeAll(async () => {
    t = await createTestApp();
    other = await createOrganisation(t.db, { name: 'Scope Org' });
    demo = await demoClientId(t.db);
  });
  afterAll(() => t.close());

  const list = async (email: string, query = '') => {
    const token = (await login(t.app, email)).access_token;
    return t.app.inject({ method: 'GET', url: `/api/v1/departments/?paginate=false${query}`, headers: bearer(token) });
  };
  const names = (res: Awaited<ReturnType<typeof list>>) => successEnvelope(departmentList).parse(res.json()).data.departments.map((d) => d.name);

  it("gives the superuser the organisation client_id names, or every organisation's", async () => {
    expect(names(await list('super@demo.local', `&client_id=${other.client.id}`))).toEqual(['Scope Org Operations']);
    const demoNames = names(await list('super@demo.local', `&client_id=${demo}`));
    expect(demoNames).toContain('Engineering');
    expect(demoNames).not.toContain('Scope Org Operations');
    const every = names(await list('super@demo.local'));
    expect(every).toEqual(expect.arrayContaining(['Engineering', 'Scope Org Operations']));
  });

  it('answers 404 for an organisation that does not exist, and 403 to a person naming another organisation', async () => {
    const unknown = await list('super@demo.local', '&client_id=00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(errorDetail(unknown)).toBe(ORGANISATION_NOT_FOUND);
    for (const email of ['user@demo.local', 'admin@demo.local']) {
      const refused = await list(email, `&client_id=${other.client.id}`);
      expect(refused.statusCode).toBe(403);
      expect(errorDetail(refused)).toBe(OTHER_ORGANISATION_DEPARTMENTS);
      expect(names(await list(email, `&client_id=${demo}`))).toContain('Engineering');
    }
  });
});
