import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths, pathTo } from '../../contract/api-paths';
import { clientQuota } from '../../contract/clients-quota';
import { successEnvelope } from '../../contract/envelope';
import { addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { seedUsage } from './helpers/usage-seed';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`a client's quota: seats and fair use (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;

  const get = (url: string, headers = superuser): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers });

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
  });
  afterAll(() => t.close());

  it('answers the superuser only: 403 for admins and users, 401 without a token', async () => {
    const url = pathTo(paths.clientQuota, { id: (await createOrganisation(t.db, { name: 'Guarded Quota Org' })).client.id });
    for (const email of ['admin@demo.local', 'user@demo.local']) {
      expect((await get(url, bearer((await login(t.app, email)).access_token))).statusCode, email).toBe(403);
    }
    expect((await get(url, {})).statusCode).toBe(401);
    expect((await get(url)).statusCode).toBe(200);
  });

  it('reports seats and this month\'s fair use: fair_use x max_users million tokens, every model call counted', async () => {
    const org = await createOrganisation(t.db, { name: 'Quota Org' });
    // createOrganisation's subscription: 10 seats, fair use 10 -> 100 million tokens this month.
    const person = await addUser(t.db, { client_id: org.client.id, name: 'Quin', email: 'quin@quota.test' });
    await addUser(t.db, { client_id: org.client.id, name: 'Quit', email: 'quit@quota.test', status: 'inactive' });
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15)).toISOString();
    await seedUsage(t.db, [
      { user: person, prompt_tokens: 20_000_000, completion_tokens: 5_000_000, created_at: new Date().toISOString() },
      { user: person, purpose: 'title', prompt_tokens: 1_000, created_at: new Date().toISOString() },
      { user: person, prompt_tokens: 90_000_000, created_at: lastMonth },
    ]);
    const res = await get(pathTo(paths.clientQuota, { id: org.client.id }));
    expect(res.statusCode, res.body).toBe(200);
    const quota = successEnvelope(clientQuota).parse(res.json()).data;
    expect(quota).toEqual({
      client_id: org.client.id,
      max_users: 10,
      active_users: 1,
      fair_use: 10,
      fair_use_usage: { used_tokens: 25_001_000, allowance_tokens: 100_000_000, percent: 25 },
    });

    const none = await createOrganisation(t.db, { name: 'Quota Without Org', subscription: 'expired' });
    const empty = successEnvelope(clientQuota).parse((await get(pathTo(paths.clientQuota, { id: none.client.id }))).json()).data;
    expect(empty).toMatchObject({ max_users: null, fair_use: null, fair_use_usage: null, active_users: 0 });
    expect((await get(pathTo(paths.clientQuota, { id: 'no-such-client' }))).statusCode).toBe(404);
  });
});
