import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successEnvelope } from '../../contract/envelope';
import { updateProfileResponse } from '../../contract/profile';
import { bearer, createOrganisation, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('PATCH /users/me/update-profile', () => {
  let t: TestApp;
  let token: string;
  let departments: Array<{ id: string; name: string; units: Array<{ id: string; name: string }> }>;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await login(t.app, 'newhire@demo.local')).access_token;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/departments/?paginate=false', headers: bearer(token) });
    departments = res.json().data.departments;
  });
  afterAll(() => t.close());

  const update = (payload: object, headers: Record<string, string> = bearer(token)) =>
    t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/update-profile', payload, headers });
  const byName = (name: string) => departments.find((d) => d.name === name)!;

  it('sets a department and unit of the own organisation', async () => {
    const finance = byName('Finance');
    const payroll = finance.units.find((u) => u.name === 'Payroll')!;
    const res = await update({ department_id: finance.id, unit_id: payroll.id });
    expect(res.statusCode).toBe(200);
    const body = successEnvelope(updateProfileResponse).parse(res.json());
    expect(body.message).toBe('Profile updated successfully');
    expect(body.data.user).toMatchObject({ email: 'newhire@demo.local', department_id: finance.id, unit_id: payroll.id });
    expect(res.body).not.toContain('password_hash');

    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
    expect(me.json().data).toMatchObject({ department_id: finance.id, unit_id: payroll.id });
  });

  it('accepts a department without a unit (unit cleared)', async () => {
    const hr = byName('Human Resources');
    const res = await update({ department_id: hr.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ department_id: hr.id, unit_id: null });
  });

  it("refuses another organisation's department", async () => {
    const other = await createOrganisation(t.db, { name: 'Rival Corp' });
    const res = await update({ department_id: other.department.id });
    expect(res.statusCode).toBe(400);
    expect(errorDetail(res)).toBe('Department not found');
    expect((await update({ department_id: 'no-such-department' })).statusCode).toBe(400);
  });

  it('refuses a unit of another department', async () => {
    const res = await update({ department_id: byName('Finance').id, unit_id: byName('Engineering').units[0].id });
    expect(res.statusCode).toBe(400);
    expect(errorDetail(res)).toBe('Unit does not belong to the selected department');
  });

  it('requires a department', async () => {
    const res = await update({ unit_id: byName('Finance').units[0].id });
    expect(res.statusCode).toBe(400);
    expect(errorDetail(res)).toBe('Department is required');
  });

  it('requires authentication', async () => {
    const res = await update({ department_id: byName('Finance').id }, {});
    expect(res.statusCode).toBe(401);
    expect(errorDetail(res)).toBe('Not authenticated');
  });

  it('leaves the superuser (no organisation) without departments to choose', async () => {
    const superToken = (await login(t.app, 'super@demo.local')).access_token;
    const res = await update({ department_id: byName('Finance').id }, bearer(superToken));
    expect(res.statusCode).toBe(400);
    expect(errorDetail(res)).toBe('Department not found');
  });
});
