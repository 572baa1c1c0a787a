import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSING_WITH_IMAGES } from '../../contract/chat-constants';
import { featureNotIncluded } from '../../contract/features';
import type { ConversationList } from '../../contract/chat';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

/** The package's features are enforced by the server, whatever the client sends. */
describe(`chat features by package (${dbKind})`, () => {
  let s: ChatServer;
  /** user@demo.local is in the premium demo organisation; this person is in a free one. */
  let freeToken: string;
  beforeAll(async () => {
    s = await startChatServer();
    const free = await createOrganisation(s.db, { name: 'Free Corp', packageType: 'free' });
    await addUser(s.db, { client_id: free.client.id, name: 'Fay Free', email: 'fay@free.example' });
    freeToken = (await login(s.app, 'fay@free.example')).access_token;
  });
  afterAll(() => s.close());

  const total = async (token: string) => (await s.api<ConversationList>('GET', '/chat/conversations', { token })).body.data.total;

  it('lets premium generate images and browse', async () => {
    expect((await s.ask({ conversation_id: null, message: 'Draw a cat', image_generation: true })).control.conversation_id).toBeTruthy();
    expect((await s.ask({ conversation_id: null, message: 'Look it up', browsing: true })).control.conversation_id).toBeTruthy();
  });

  it('refuses image generation outside the package with 403, before anything is saved', async () => {
    const before = await total(freeToken);
    const res = await s.api('POST', '/chat/messages', {
      token: freeToken,
      body: { conversation_id: null, message: 'Draw a cat', image_generation: true },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Image generation is not included in your organisation's package.");
    expect(res.body.detail).toBe(featureNotIncluded('image_generation'));
    expect(await total(freeToken)).toBe(before);
  });

  it('lets the free package browse and reason', async () => {
    const reply = await s.ask({ conversation_id: null, message: 'Look it up', browsing: true, reasoning_effort: 'medium' }, freeToken);
    expect(reply.control.conversation_id).toBeTruthy();
  });

  it('refuses browsing together with image generation with 400, for every package', async () => {
    for (const token of [s.token, freeToken]) {
      const res = await s.api('POST', '/chat/messages', {
        token,
        body: { conversation_id: null, message: 'Both', browsing: true, image_generation: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('Web browsing and image generation cannot be used together.');
      expect(res.body.detail).toBe(BROWSING_WITH_IMAGES);
    }
  });

  it('tells the SPA what each package allows', async () => {
    const me = await s.api<{ features: string[] }>('GET', '/users/me', { token: freeToken });
    expect(me.body.data.features).toEqual(['browsing', 'reasoning']);
    const premium = await s.api<{ features: string[] }>('GET', '/users/me');
    expect(premium.body.data.features).toEqual(['browsing', 'image_generation', 'reasoning']);
  });
});
