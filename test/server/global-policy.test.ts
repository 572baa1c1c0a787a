import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { globalPolicy } from '../../contract/global-policy';
import { POLICY_MAX_WORDS, POLICY_TOO_LONG, POLICY_UPDATED } from '../../contract/global-policy-constants';
import { isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`the global policy (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  /** The admin of another organisation. */
  let otherAdmin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const other = await createOrganisation(t.db, { name: 'Other Org' });
    await addUser(t.db, { client_id: other.client.id, name: 'Olga Other', email: 'olga@other.test', role: 'admin' });
    otherAdmin = bearer((await login(t.app, 'olga@other.test')).access_token);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `${API}/global-policy/`, headers, payload });
  const policyOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(globalPolicy).parse(res.json()).data.policy_prompt;
  };

  it('starts empty, stores the text trimmed, and removes it when emptied', async () => {
    expect(policyOf(await call('GET', admin))).toBeNull();
    const saved = await call('PUT', admin, { policy_prompt: '  Answer in British English.\n  ' });
    expect(policyOf(saved)).toBe('Answer in British English.');
    expect(saved.json().message).toBe(POLICY_UPDATED);
    expect(policyOf(await call('GET', admin))).toBe('Answer in British English.');
    expect(policyOf(await call('PUT', admin, { policy_prompt: '   ' }))).toBeNull();
    expect(policyOf(await call('GET', admin))).toBeNull();
    await call('PUT', admin, { policy_prompt: 'Be brief.' });
    expect(policyOf(await call('PUT', admin, { policy_prompt: null }))).toBeNull();
  });

  it(`refuses more than ${POLICY_MAX_WORDS} words (split on whitespace) and keeps what was stored`, async () => {
    await call('PUT', admin, { policy_prompt: 'Keep this.' });
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' \n\t ');
    expect(policyOf(await call('PUT', admin, { policy_prompt: words(POLICY_MAX_WORDS) }))).toBe(words(POLICY_MAX_WORDS));
    const refused = await call('PUT', admin, { policy_prompt: words(POLICY_MAX_WORDS + 1) });
    expect(refused.statusCode).toBe(400);
    const body = errorEnvelope.parse(refused.json());
    expect(body.detail).toBe(POLICY_TOO_LONG);
    expect(body.fields).toEqual({ policy_prompt: POLICY_TOO_LONG });
    expect(policyOf(await call('GET', admin))).toBe(words(POLICY_MAX_WORDS));
    expect((await call('PUT', admin, { policy_prompt: 42 })).statusCode).toBe(400);
  });

  it('is one per organisation: another organisation neither sees nor changes it', async () => {
    await call('PUT', admin, { policy_prompt: 'Demo policy.' });
    expect(policyOf(await call('GET', otherAdmin))).toBeNull();
    await call('PUT', otherAdmin, { policy_prompt: 'Other policy.' });
    expect(policyOf(await call('GET', admin))).toBe('Demo policy.');
    expect(policyOf(await call('GET', otherAdmin))).toBe('Other policy.');
  });

  it('is for admins: a user and the superuser get 403, and nobody signed out', async () => {
    for (const email of ['user@demo.local', 'super@demo.local']) {
      const headers = bearer((await login(t.app, email)).access_token);
      expect((await call('GET', headers)).statusCode).toBe(403);
      expect((await call('PUT', headers, { policy_prompt: 'Taken over.' })).statusCode).toBe(403);
    }
    expect((await call('GET', {})).statusCode).toBe(401);
    expect(policyOf(await call('GET', admin))).not.toBe('Taken over.');
  });
});

describe(`the global policy in the model's system prompt (${dbKind})`, () => {
  let fake: FakeOpenAi;
  let s: ChatServer;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'gpt-4o-mini' } });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const systemPromptFor = (question: string) =>
    fake.requests.find((r) => !isTitleRequest(r) && r.body.messages.at(-1)?.content === question)!.body.messages[0]!;

  it("joins every reply of the organisation from the next question on, and leaves other organisations' alone", async () => {
    const admin = bearer((await login(s.app, 'admin@demo.local')).access_token);
    await s.ask({ conversation_id: null, message: 'Before the policy' });
    expect(systemPromptFor('Before the policy').content).not.toContain('British English');

    const put = await s.app.inject({ method: 'PUT', url: `${API}/global-policy/`, headers: admin, payload: { policy_prompt: 'Always answer in British English.' } });
    expect(put.statusCode, put.body).toBe(200);
    await s.ask({ conversation_id: null, message: 'After the policy' });
    const system = systemPromptFor('After the policy');
    expect(system.role).toBe('system');
    expect(system.content).toContain('Tanya');
    expect(system.content).toContain('Always answer in British English.');

    const other = await createOrganisation(s.db, { name: 'Policy-free Org' });
    await addUser(s.db, { client_id: other.client.id, name: 'Pat Other', email: 'pat@other.test' });
    const stranger = await login(s.app, 'pat@other.test');
    await s.ask({ conversation_id: null, message: 'From another organisation' }, stranger.access_token);
    expect(systemPromptFor('From another organisation').content).not.toContain('British English');
  });
});
