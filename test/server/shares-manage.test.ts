import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { SHARE_NOT_FOUND, SHARING_STOPPED, shareLink, shareList, type ShareList } from '../../contract/shares';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { addUser, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { dbKind, PUBLIC_URL } from './helpers/test-app';

/** The owner's list of shared links and revoking one (issue 28), and where share URLs come from. */
describe(`managing shared links (${dbKind})`, () => {
  let s: ChatServer;
  let adminToken: string;
  let superToken: string;
  /** A user of another organisation, with a conversation and a share of their own. */
  let strangerToken: string;
  beforeAll(async () => {
    s = await startChatServer();
    adminToken = (await login(s.app, 'admin@demo.local')).access_token;
    superToken = (await login(s.app, 'super@demo.local')).access_token;
    const other = await createOrganisation(s.db, { name: 'Other Org' });
    await addUser(s.db, { client_id: other.client.id, name: 'Sam Stranger', email: 'sam@other.test' });
    strangerToken = (await login(s.app, 'sam@other.test')).access_token;
  });
  afterAll(() => s.close());

  const newConversation = async (message: string, token?: string) => (await s.ask({ conversation_id: null, message }, token)).control.conversation_id;
  const share = async (conversationId: string, token?: string) => {
    const res = await s.api('POST', `/shares/conversations/${conversationId}`, { token });
    expect(res.status).toBe(200);
    return successEnvelope(shareLink).parse(res.body).data;
  };
  const list = async (token?: string, query?: Record<string, number>) => {
    const res = await s.api<ShareList>('GET', '/shares/', { token, query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return successEnvelope(shareList).parse(res.body).data;
  };
  const titled = async (title: string, token?: string) => {
    const id = await newConversation(`About ${title}`, token);
    await s.api('PATCH', `/chat/conversations/${id}/rename`, { query: { title }, token });
    return id;
  };

  it("lists only the person's own links, newest first, paged, with the conversation, its title and the link", async () => {
    await addUser(s.db, { client_id: await demoClientId(s.db), name: 'Lee Lister', email: 'lee@demo.local' });
    const token = (await login(s.app, 'lee@demo.local')).access_token;
    expect(await list(token)).toEqual({ shares: [], page: 1, page_size: 10, total: 0, total_pages: 0 });

    const made: { conversation: string; link: { share_url: string; share_id: string } }[] = [];
    for (let i = 1; i <= 12; i++) {
      const conversation = await titled(`Topic ${i}`, token);
      made.push({ conversation, link: await share(conversation, token) });
    }
    // Someone else's links, in this organisation and another, never appear.
    await share(await newConversation('Not Lee'));
    await share(await newConversation('Not Lee either', strangerToken), strangerToken);

    const first = await list(token);
    expect(first).toMatchObject({ page: 1, page_size: 10, total: 12, total_pages: 2 });
    expect(first.shares.map((x) => x.title)).toEqual(['Topic 12', 'Topic 11', 'Topic 10', 'Topic 9', 'Topic 8', 'Topic 7', 'Topic 6', 'Topic 5', 'Topic 4', 'Topic 3']);
    const newest = made[11];
    expect(first.shares[0]).toEqual({
      id: newest.link.share_id,
      conversation_id: newest.conversation,
      title: 'Topic 12',
      share_url: `${PUBLIC_URL}/share/${newest.link.share_id}`,
      created_at: expect.any(String),
      snapshot_at: expect.any(String),
    });
    expect(newest.link.share_url).toBe(first.shares[0].share_url);
    const second = await list(token, { page: 2 });
    expect(second.shares.map((x) => x.title)).toEqual(['Topic 2', 'Topic 1']);
    expect((await list(token, { page: 1, page_size: 5 })).total_pages).toBe(3);
  });

  it('revokes a link: it stops opening at once, for colleagues and the owner, and leaves the list', async () => {
    const id = await titled('Revoke me');
    const link = await share(id);
    expect((await s.api('GET', `/shares/${link.share_id}`, { token: s.otherToken })).status).toBe(200);

    const res = await s.api('DELETE', `/shares/${link.share_id}`);
    expect(res.status).toBe(200);
    expect(successEnvelope(messageOnly).parse(res.body).data.message).toBe(SHARING_STOPPED);

    for (const token of [s.otherToken, s.token, adminToken]) {
      const gone = await s.api('GET', `/shares/${link.share_id}`, { token });
      expect(gone.status).toBe(404);
      expect(gone.body.detail).toBe(SHARE_NOT_FOUND);
    }
    expect((await list()).shares.map((x) => x.id)).not.toContain(link.share_id);
    expect(await s.db.selectFrom('shared_messages').select('seq').where('share_id', '=', link.share_id).execute()).toEqual([]);
    // The conversation itself stays.
    expect((await s.api('GET', `/chat/conversations/${id}/messages`)).status).toBe(200);

    // Revoking again is the 404 of an unknown link; sharing again gives a new link, and the old one stays dead.
    expect((await s.api('DELETE', `/shares/${link.share_id}`)).status).toBe(404);
    const again = await share(id);
    expect(again.share_id).not.toBe(link.share_id);
    expect((await s.api('GET', `/shares/${again.share_id}`, { token: s.otherToken })).status).toBe(200);
    expect((await s.api('GET', `/shares/${link.share_id}`, { token: s.otherToken })).status).toBe(404);
  });

  it("answers the 404 of an unknown link to anyone revoking another person's link, in this organisation or another", async () => {
    const link = await share(await titled('Mine to revoke'));
    for (const token of [s.otherToken, adminToken, superToken, strangerToken]) {
      const res = await s.api('DELETE', `/shares/${link.share_id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(SHARE_NOT_FOUND);
    }
    const unknown = await s.api('DELETE', '/shares/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(SHARE_NOT_FOUND);
    // Still shared.
    expect((await s.api('GET', `/shares/${link.share_id}`, { token: s.otherToken })).status).toBe(200);

    // The stranger's own link is theirs alone to revoke.
    const theirs = await share(await newConversation('Their matter', strangerToken), strangerToken);
    expect((await s.api('DELETE', `/shares/${theirs.share_id}`)).status).toBe(404);
    expect((await list(strangerToken)).shares.map((x) => x.id)).toContain(theirs.share_id);
    expect((await s.api('DELETE', `/shares/${theirs.share_id}`, { token: strangerToken })).status).toBe(200);
  });

  it("keeps a superuser's links to the superuser", async () => {
    const link = await share(await newConversation('Platform matter', superToken), superToken);
    expect((await list(superToken)).shares.map((x) => x.id)).toEqual([link.share_id]);
    expect((await list()).shares.map((x) => x.id)).not.toContain(link.share_id);
    expect((await s.api('DELETE', `/shares/${link.share_id}`)).status).toBe(404);
    expect((await s.api('DELETE', `/shares/${link.share_id}`, { token: superToken })).status).toBe(200);
  });

  it('refuses a bad page with 400 naming the field, and anonymous callers with 401', async () => {
    const bad = await s.api('GET', '/shares/', { query: { page: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/page/);
    const big = await s.api('GET', '/shares/', { query: { page_size: 101 } });
    expect(big.status).toBe(400);
    expect(big.body.detail).toMatch(/page_size/);
    for (const [method, path] of [
      ['GET', '/shares/'],
      ['DELETE', '/shares/AAAAAAAAAAAAAAAAAAAAAAAA'],
    ]) {
      const res = await fetch(`${s.apiUrl}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('builds share URLs from PUBLIC_URL, whatever Host or X-Forwarded-Host the request names', async () => {
    const id = await newConversation('Where does my link point?');
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/v1/shares/conversations/${id}`,
      headers: { authorization: `Bearer ${s.token}`, host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(res.statusCode).toBe(200);
    const link = successEnvelope(shareLink).parse(res.json()).data;
    expect(link.share_url).toBe(`${PUBLIC_URL}/share/${link.share_id}`);
    const listed = await s.app.inject({ method: 'GET', url: '/api/v1/shares/', headers: { authorization: `Bearer ${s.token}`, host: 'evil.example' } });
    expect(successEnvelope(shareList).parse(listed.json()).data.shares.every((x) => x.share_url.startsWith(`${PUBLIC_URL}/share/`))).toBe(true);
  });
});
