import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { systemPrompt, systemPromptList, systemPromptPreview, type SystemPrompt } from '../../contract/system-prompts';
import {
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_CONTENT_REQUIRED,
  SYSTEM_PROMPT_CREATED,
  SYSTEM_PROMPT_DELETED,
  SYSTEM_PROMPT_NAME_REQUIRED,
  SYSTEM_PROMPT_NOT_FOUND,
} from '../../contract/system-prompts-constants';
import { CLIENT_NOT_FOUND } from '../../contract/oauth-configs-constants';
import { isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { API, addUser, bearer, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

describe(`the superuser's system prompts (${dbKind})`, () => {
  let fake: FakeOpenAi;
  let s: ChatServer;
  let superuser: Record<string, string>;
  let demoAdmin: Record<string, string>;
  let demoClient: string;
  /** A person of another organisation, which has no prompt of its own. */
  let strangerToken: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'gpt-4o-mini' } });
    superuser = bearer((await login(s.app, 'super@demo.local')).access_token);
    demoAdmin = bearer((await login(s.app, 'admin@demo.local')).access_token);
    demoClient = await demoClientId(s.db);
    const other = await createOrganisation(s.db, { name: 'Prompt-free Org' });
    await addUser(s.db, { client_id: other.client.id, name: 'Sam Stranger', email: 'sam@stranger.test' });
    strangerToken = (await login(s.app, 'sam@stranger.test')).access_token;
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, headers = superuser) =>
    s.app.inject({ method, url: `${API}/system-prompts${path}`, headers, payload });
  const promptOf = (res: LightMyRequestResponse, message?: string): SystemPrompt => {
    expect(res.statusCode, res.body).toBe(200);
    if (message) expect(res.json().message).toBe(message);
    return successEnvelope(systemPrompt).parse(res.json()).data;
  };
  const refused = (res: LightMyRequestResponse, status: number, detail?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    if (detail) expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };
  const create = async (name: string, content: string, clientId: string | null = null) =>
    promptOf(await call('POST', '/', { name, content, client_id: clientId }), SYSTEM_PROMPT_CREATED);
  const activate = async (id: string) => promptOf(await call('POST', `/${id}/activate`), SYSTEM_PROMPT_ACTIVATED);
  const list = async () => successEnvelope(systemPromptList).parse((await call('GET', '/')).json()).data.prompts;

  /** The system message of the reply to `question`, as the scripted model received it. */
  const systemPromptFor = async (question: string, token?: string) => {
    await s.ask({ conversation_id: null, message: question }, token);
    const request = fake.requests.find((r) => !isTitleRequest(r) && r.body.messages.at(-1)?.content === question)!;
    expect(request.body.messages[0]!.role).toBe('system');
    return request.body.messages[0]!.content;
  };

  it('keeps one active for everyone and one per client; activating one deactivates the other of its scope only', async () => {
    const first = await create('Everyone v1', 'Everyone prompt one.');
    expect(first).toMatchObject({ name: 'Everyone v1', client_id: null, is_active: false });
    const second = await create('Everyone v2', 'Everyone prompt two.');
    const mine = await create('Demo only', 'Demo prompt.', demoClient);
    expect((await activate(first.id)).is_active).toBe(true);
    expect((await activate(mine.id)).is_active).toBe(true);
    expect((await activate(second.id)).is_active).toBe(true);
    const active = (await list()).filter((p) => p.is_active).map((p) => p.name).sort();
    expect(active).toEqual(['Demo only', 'Everyone v2']);
    // Activating the active one again changes nothing.
    expect((await activate(second.id)).is_active).toBe(true);
    expect(promptOf(await call('GET', `/${first.id}`)).is_active).toBe(false);
  });

  it("reaches the model after the base prompt and before the organisation's policy; a client's replaces everyone's for it only", async () => {
    const everyone = await create('Everyone', 'SYSTEM-FOR-EVERYONE: cite sources.');
    await activate(everyone.id);
    const strangers = await systemPromptFor('What does everyone get?', strangerToken);
    expect(strangers).toContain('SYSTEM-FOR-EVERYONE');

    const policy = await s.app.inject({ method: 'PUT', url: `${API}/global-policy/`, headers: demoAdmin, payload: { policy_prompt: 'POLICY-OF-DEMO: be formal.' } });
    expect(policy.statusCode, policy.body).toBe(200);
    const demo = await create('Demo', 'SYSTEM-FOR-DEMO: mention the demo.', demoClient);
    await activate(demo.id);

    const demoPrompt = await systemPromptFor('What does demo get?');
    expect(demoPrompt).not.toContain('SYSTEM-FOR-EVERYONE');
    const base = demoPrompt.indexOf('You are Tanya');
    const own = demoPrompt.indexOf('SYSTEM-FOR-DEMO');
    const orgPolicy = demoPrompt.indexOf('POLICY-OF-DEMO');
    expect(base).toBe(0);
    expect(own).toBeGreaterThan(base);
    expect(orgPolicy).toBeGreaterThan(own);

    // Another organisation still gets everyone's, and none of the demo's prompt or policy.
    const strangersAgain = await systemPromptFor('And everyone now?', strangerToken);
    expect(strangersAgain).toContain('SYSTEM-FOR-EVERYONE');
    expect(strangersAgain).not.toContain('SYSTEM-FOR-DEMO');
    expect(strangersAgain).not.toContain('POLICY-OF-DEMO');

    // Deactivating the demo's own gives the demo everyone's again, still before its policy.
    promptOf(await call('POST', `/${demo.id}/deactivate`));
    const fallback = await systemPromptFor('Back to everyone?');
    expect(fallback.indexOf('SYSTEM-FOR-EVERYONE')).toBeGreaterThan(0);
    expect(fallback.indexOf('POLICY-OF-DEMO')).toBeGreaterThan(fallback.indexOf('SYSTEM-FOR-EVERYONE'));
    expect(fallback).not.toContain('SYSTEM-FOR-DEMO');

    // The editor's preview composes the same way.
    const preview = successEnvelope(systemPromptPreview).parse((await call('GET', `/preview?client_id=${demoClient}`)).json()).data;
    expect(preview.active_prompt_id).toBe(everyone.id);
    expect(preview.system_prompt.indexOf('SYSTEM-FOR-EVERYONE')).toBeGreaterThan(0);
    expect(preview.system_prompt.indexOf('POLICY-OF-DEMO')).toBeGreaterThan(preview.system_prompt.indexOf('SYSTEM-FOR-EVERYONE'));
    const everyonePreview = successEnvelope(systemPromptPreview).parse((await call('GET', '/preview')).json()).data;
    expect(everyonePreview.system_prompt).toContain('SYSTEM-FOR-EVERYONE');
    expect(everyonePreview.system_prompt).not.toContain('POLICY-OF-DEMO');
    refused(await call('GET', '/preview?client_id=no-such-client'), 404, CLIENT_NOT_FOUND);

    // An edit of the active prompt is used from the next reply on; deleting it leaves everyone without one.
    promptOf(await call('PUT', `/${everyone.id}`, { content: 'SYSTEM-EDITED: be kind.' }));
    expect(await systemPromptFor('After the edit?', strangerToken)).toContain('SYSTEM-EDITED');
    expect((await call('DELETE', `/${everyone.id}`)).json()).toMatchObject({ data: { id: everyone.id }, message: SYSTEM_PROMPT_DELETED });
    const none = await systemPromptFor('After the delete?', strangerToken);
    expect(none).not.toContain('SYSTEM-EDITED');
    expect(none).toContain('You are Tanya');
  });

  it('moving an active prompt to another scope deactivates it', async () => {
    const p = await create('Mover', 'Moving prompt.', demoClient);
    await activate(p.id);
    expect(promptOf(await call('PUT', `/${p.id}`, { client_id: null })).is_active).toBe(false);
    expect(promptOf(await call('PUT', `/${p.id}`, { name: 'Renamed' })).name).toBe('Renamed');
  });

  it('validates, and answers 404 for unknown prompts and 400 for an unknown client', async () => {
    refused(await call('POST', '/', { content: 'x' }), 400, SYSTEM_PROMPT_NAME_REQUIRED);
    refused(await call('POST', '/', { name: 'x', content: '   ' }), 400, SYSTEM_PROMPT_CONTENT_REQUIRED);
    refused(await call('POST', '/', { name: 'x', content: 'y', client_id: 'no-such-client' }), 400, CLIENT_NOT_FOUND);
    refused(await call('POST', '/', { name: 'x', content: 'y', client_id: 42 }), 400);
    for (const [method, path] of [['GET', '/nope'], ['PUT', '/nope'], ['DELETE', '/nope'], ['POST', '/nope/activate'], ['POST', '/nope/deactivate']] as const) {
      refused(await call(method, path, method === 'PUT' ? { name: 'n' } : undefined), 404, SYSTEM_PROMPT_NOT_FOUND);
    }
  });

  it('is for the superuser: admins and users 403, nobody signed in 401', async () => {
    const p = await create('Guarded', 'Guarded prompt.');
    const user = bearer((await login(s.app, 'user@demo.local')).access_token);
    for (const headers of [demoAdmin, user]) {
      refused(await call('GET', '/', undefined, headers), 403);
      refused(await call('POST', '/', { name: 'x', content: 'y' }, headers), 403);
      refused(await call('GET', `/${p.id}`, undefined, headers), 403);
      refused(await call('PUT', `/${p.id}`, { name: 'Taken' }, headers), 403);
      refused(await call('DELETE', `/${p.id}`, undefined, headers), 403);
      refused(await call('POST', `/${p.id}/activate`, undefined, headers), 403);
      refused(await call('GET', `/preview?client_id=${demoClient}`, undefined, headers), 403);
    }
    refused(await call('GET', '/', undefined, {}), 401);
    expect(promptOf(await call('GET', `/${p.id}`))).toMatchObject({ name: 'Guarded', is_active: false });
  });
});
