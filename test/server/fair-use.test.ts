import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE } from '../../contract/chat-constants';
import { successEnvelope } from '../../contract/envelope';
import { dashboard } from '../../contract/usage-reports';
import { FAIR_USE_TOKENS_PER_UNIT } from '../../server/services/organisation/fair-use';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';
import { seedUsage } from './helpers/usage-seed';

/** The first instant of the UTC month `offset` months from this one. */
const monthStartIso = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString();
};

describe(`fair use: allowance = fair_use x max_users x 1,000,000 tokens per UTC month (${dbKind})`, () => {
  let s: ChatServer;
  let org: Awaited<ReturnType<typeof createOrganisation>>;
  let person: { id: string; client_id: string };
  let token: string;
  let admin: Record<string, string>;
  /** fair_use 2 x max_users 3. */
  const allowance = 2 * 3 * FAIR_USE_TOKENS_PER_UNIT;

  beforeAll(async () => {
    s = await startChatServer();
    org = await createOrganisation(s.db, { name: 'Metered Org' });
    await s.db.updateTable('subscriptions').set({ fair_use: 2, max_users: 3 }).where('client_id', '=', org.client.id).execute();
    const user = await addUser(s.db, { client_id: org.client.id, name: 'Mia Metered', email: 'mia@metered.test' });
    await addUser(s.db, { client_id: org.client.id, name: 'Max Metered', email: 'max@metered.test', role: 'admin' });
    person = { id: user.id, client_id: org.client.id };
    token = (await login(s.app, 'mia@metered.test')).access_token;
    admin = bearer((await login(s.app, 'max@metered.test')).access_token);
  });
  afterAll(() => s?.close());

  const used = async () =>
    Number(
      (
        await s.db
          .selectFrom('usage_logs')
          .select((eb) => eb.fn.sum<number>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('n'))
          .where('client_id', '=', org.client.id)
          .where('created_at', '>=', monthStartIso(0))
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );
  /** Tops this month's usage up to `total` tokens. */
  const useUpTo = async (total: number) => {
    const missing = total - (await used());
    if (missing > 0) await seedUsage(s.db, [{ user: person, prompt_tokens: missing, created_at: new Date().toISOString() }]);
  };
  const dashboardFairUse = async () => {
    const res = await s.app.inject({ method: 'GET', url: `${API}/usage-logs/dashboard/latest`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(dashboard).parse(res.json()).data.fair_use;
  };

  it('allows questions below 100%, refuses sends and edits at 100% with 429 fair_use_exceeded, and leaves other organisations alone', async () => {
    const first = await s.ask({ conversation_id: null, message: 'Below the allowance' }, token);
    await useUpTo(allowance - 1);
    const below = await s.ask({ conversation_id: first.control.conversation_id, message: 'One token to spare' }, token);
    expect(below.text.length).toBeGreaterThan(0);

    await useUpTo(allowance);
    const refused = await s.api<never>('POST', '/chat/messages', { token, body: { conversation_id: null, message: 'Over the allowance' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 'error', detail: FAIR_USE_EXCEEDED, code: FAIR_USE_EXCEEDED_CODE });
    // Until the next month starts (UTC).
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((Date.parse(monthStartIso(1)) - Date.now()) / 1000) + 1);

    const edit = await s.api<never>('POST', '/chat/messages', {
      token,
      body: { conversation_id: first.control.conversation_id, message: 'Edited question', message_id_to_edit: first.control.user_message_id },
    });
    expect(edit.status).toBe(429);
    expect(edit.body).toMatchObject({ code: FAIR_USE_EXCEEDED_CODE });
    // Nothing of the refused questions was saved.
    const messages = await s.api<{ messages: { content: string }[] }>('GET', `/chat/conversations/${first.control.conversation_id}/messages`, { token });
    expect(JSON.stringify(messages.body.data)).not.toContain('Edited question');

    // The demo organisation asks as before.
    expect((await s.ask({ conversation_id: null, message: 'Another organisation asks' })).text.length).toBeGreaterThan(0);

    const share = await dashboardFairUse();
    expect(share).toMatchObject({ allowance_tokens: allowance });
    expect(share!.used_tokens).toBeGreaterThanOrEqual(allowance);
    expect(share!.percent).toBeGreaterThanOrEqual(100);
  });

  it("counts this calendar month only: last month's tokens do not refuse this month's questions", async () => {
    // Everything used so far moves to the last millisecond of last month.
    const lastMonth = new Date(Date.parse(monthStartIso(0)) - 1).toISOString();
    await s.db.updateTable('usage_logs').set({ created_at: lastMonth }).where('client_id', '=', org.client.id).execute();
    const fresh = await s.ask({ conversation_id: null, message: 'A new month' }, token);
    expect(fresh.text.length).toBeGreaterThan(0);
    const share = await dashboardFairUse();
    expect(share!.used_tokens).toBeLessThan(allowance);
    expect(share!.percent).toBeLessThan(100);
    await seedUsage(s.db, [{ user: person, prompt_tokens: allowance, created_at: new Date().toISOString() }]);
    expect((await s.api<never>('POST', '/chat/messages', { token, body: { conversation_id: null, message: 'Refused again' } })).status).toBe(429);
    // Another person of the same organisation is refused too: the allowance is the organisation's.
    const colleague = (await login(s.app, 'max@metered.test')).access_token;
    expect((await s.api<never>('POST', '/chat/messages', { token: colleague, body: { conversation_id: null, message: 'Me neither?' } })).status).toBe(429);
  });

  it("counts the month from its first instant, and tokens older than a minute as well as the latest", async () => {
    const org2 = await createOrganisation(s.db, { name: 'Boundary Org' });
    await s.db.updateTable('subscriptions').set({ fair_use: 1, max_users: 1 }).where('client_id', '=', org2.client.id).execute();
    const u = await addUser(s.db, { client_id: org2.client.id, name: 'Bo Boundary', email: 'bo@boundary.test' });
    const bo = (await login(s.app, 'bo@boundary.test')).access_token;
    const who = { id: u.id, client_id: org2.client.id };
    const ask = (message: string) => s.api<never>('POST', '/chat/messages', { token: bo, body: { conversation_id: null, message } });
    // The last instant of last month does not count; the first of this one does.
    await seedUsage(s.db, [{ user: who, prompt_tokens: 5 * FAIR_USE_TOKENS_PER_UNIT, created_at: new Date(Date.parse(monthStartIso(0)) - 1).toISOString() }]);
    await seedUsage(s.db, [{ user: who, prompt_tokens: 600_000, created_at: monthStartIso(0) }]);
    const allowed = await s.send({ conversation_id: null, message: 'Still allowed' }, { token: bo });
    expect(allowed.status).toBe(200);
    await allowed.text();
    // The latest rows add to what was summed before.
    await seedUsage(s.db, [{ user: who, completion_tokens: 400_000, created_at: new Date().toISOString() }]);
    const refused = await ask('Now refused');
    expect(refused.status).toBe(429);
  });

  it('reports the share on the dashboard as used / allowance, one decimal rounded down', async () => {
    const other = await createOrganisation(s.db, { name: 'Quarter Org' });
    await s.db.updateTable('subscriptions').set({ fair_use: 1, max_users: 1 }).where('client_id', '=', other.client.id).execute();
    const u = await addUser(s.db, { client_id: other.client.id, name: 'Quinn Quarter', email: 'quinn@quarter.test', role: 'admin' });
    await seedUsage(s.db, [{ user: { id: u.id, client_id: other.client.id }, prompt_tokens: 200_000, completion_tokens: 50_999, created_at: new Date().toISOString() }]);
    const headers = bearer((await login(s.app, 'quinn@quarter.test')).access_token);
    const res = await s.app.inject({ method: 'GET', url: `${API}/usage-logs/dashboard/latest`, headers });
    expect(successEnvelope(dashboard).parse(res.json()).data.fair_use).toEqual({ used_tokens: 250_999, allowance_tokens: 1_000_000, percent: 25 });
  });
});
