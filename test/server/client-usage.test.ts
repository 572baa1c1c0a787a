import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths, pathTo } from '../../contract/api-paths';
import { clientUsage } from '../../contract/clients';
import { DELETED_DEPARTMENT_NAME, NO_DEPARTMENT_NAME, USAGE_MONTH_INVALID, USAGE_PERIOD_INCOMPLETE } from '../../contract/clients-constants';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { insertDepartment } from '../../server/db/repositories/departments';
import { addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { isoDay, seedUsage } from './helpers/usage-seed';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`a client's usage per department (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;

  const get = (url: string): Promise<LightMyRequestResponse> => t.app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers: superuser });
  const usageUrl = (id: string, query = '') => `${pathTo(paths.clientDepartmentUsage, { id })}${query}`;

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
  });
  afterAll(() => t.close());

  it('sums requests, tokens and USD costs per department in a month, people without a department in a row of their own', async () => {
    const org = await createOrganisation(t.db, { name: 'Usage Org' });
    const other = await createOrganisation(t.db, { name: 'Other Usage Org' });
    const finance = await insertDepartment(t.db, org.client.id, 'Finance');
    const gone = await insertDepartment(t.db, org.client.id, 'Gone Department');
    const person = await addUser(t.db, { client_id: org.client.id, name: 'Uma', email: 'uma@usage.test' });
    const stranger = await addUser(t.db, { client_id: other.client.id, name: 'Ola', email: 'ola@usage.test' });
    const inMonth = isoDay(2030, 5, 15);
    await seedUsage(t.db, [
      { user: person, department_id: org.department.id, prompt_tokens: 100, completion_tokens: 50, created_at: inMonth, times: 3 },
      { user: person, department_id: org.department.id, purpose: 'title', prompt_tokens: 10, completion_tokens: 5, created_at: inMonth },
      { user: person, department_id: finance.id, prompt_tokens: 1000, completion_tokens: 0, created_at: isoDay(2030, 5, 1, '00:00:00.000') },
      { user: person, department_id: null, prompt_tokens: 7, completion_tokens: 3, created_at: isoDay(2030, 5, 31, '23:59:59.999'), times: 2 },
      { user: person, department_id: gone.id, prompt_tokens: 1, completion_tokens: 1, created_at: inMonth },
      // Outside the month, and another client's usage: not counted.
      { user: person, department_id: finance.id, prompt_tokens: 999, created_at: isoDay(2030, 6, 1, '00:00:00.000') },
      { user: person, department_id: finance.id, prompt_tokens: 999, created_at: isoDay(2030, 4, 30, '23:59:59.999') },
      { user: stranger, department_id: other.department.id, prompt_tokens: 999, created_at: inMonth },
    ]);
    // Priced rows: gpt-4o costs 2.5 USD per million prompt tokens and 10 per million completion tokens.
    await t.db.updateTable('usage_logs').set({ model: 'gpt-4o', cost_usd: (100 * 2.5 + 50 * 10) / 1e6 })
      .where('department_id', '=', org.department.id).where('purpose', '=', 'reply').execute();
    await t.db.deleteFrom('departments').where('id', '=', gone.id).execute();

    const res = await get(usageUrl(org.client.id, '?year=2030&month=05'));
    expect(res.statusCode, res.body).toBe(200);
    const usage = successEnvelope(clientUsage).parse(res.json()).data;
    expect(usage).toMatchObject({ client_id: org.client.id, year: 2030, month: '05' });
    expect(usage.departments.map((d) => d.department_name)).toEqual(['Finance', 'Usage Org Operations', NO_DEPARTMENT_NAME, DELETED_DEPARTMENT_NAME]);
    const [fin, ops, none, deleted] = usage.departments;
    expect(fin).toMatchObject({ department_id: finance.id, total_requests: 1, token_usage: { prompt_tokens: 1000, completion_tokens: 0, total_tokens: 1000 } });
    expect(fin.token_costs).toEqual({ prompt_cost: 0, completion_cost: 0, total_cost: 0 });
    // The title's tokens count; it is no request.
    expect(ops).toMatchObject({ department_id: org.department.id, total_requests: 3, token_usage: { prompt_tokens: 310, completion_tokens: 155, total_tokens: 465 } });
    expect(ops.token_costs.prompt_cost).toBeCloseTo(3 * 250e-6, 9);
    expect(ops.token_costs.completion_cost).toBeCloseTo(3 * 500e-6, 9);
    expect(ops.token_costs.total_cost).toBeCloseTo(3 * 750e-6, 9);
    expect(none).toMatchObject({ department_id: null, total_requests: 2, token_usage: { prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 } });
    expect(deleted).toMatchObject({ department_id: gone.id, total_requests: 1, token_usage: { total_tokens: 2 } });
    expect(res.body).not.toContain('Other Usage Org');

    const empty = successEnvelope(clientUsage).parse((await get(usageUrl(org.client.id, '?year=2030&month=7'))).json()).data;
    expect(empty).toMatchObject({ month: '07', departments: [] });
  });

  it('reads the previous calendar month by default, and refuses a half or invalid period', async () => {
    const org = await createOrganisation(t.db, { name: 'Default Month Org' });
    const person = await addUser(t.db, { client_id: org.client.id, name: 'Dee', email: 'dee@default.test' });
    const now = new Date();
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    await seedUsage(t.db, [
      { user: person, department_id: org.department.id, prompt_tokens: 5, created_at: isoDay(previous.getUTCFullYear(), previous.getUTCMonth() + 1, 20) },
      { user: person, department_id: org.department.id, prompt_tokens: 500, created_at: new Date().toISOString() },
    ]);
    const usage = successEnvelope(clientUsage).parse((await get(usageUrl(org.client.id))).json()).data;
    expect(usage.year).toBe(previous.getUTCFullYear());
    expect(usage.month).toBe(String(previous.getUTCMonth() + 1).padStart(2, '0'));
    expect(usage.departments.map((d) => d.token_usage.prompt_tokens)).toEqual([5]);

    const half = await get(usageUrl(org.client.id, '?year=2030'));
    expect(half.statusCode).toBe(400);
    expect(errorEnvelope.parse(half.json()).detail).toBe(USAGE_PERIOD_INCOMPLETE);
    for (const month of ['13', '00', 'may', '1.5']) {
      const bad = await get(usageUrl(org.client.id, `?year=2030&month=${month}`));
      expect(bad.statusCode, month).toBe(400);
      expect(errorEnvelope.parse(bad.json()).detail, month).toBe(USAGE_MONTH_INVALID);
    }
    expect((await get(usageUrl(org.client.id, '?year=30&month=01'))).statusCode).toBe(400);
    expect((await get(usageUrl('no-such-client'))).statusCode).toBe(404);
  });
});
