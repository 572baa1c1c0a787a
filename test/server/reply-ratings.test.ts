import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationMessages } from '../../contract/chat';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { inboxPage, replyRatingResult, type InboxItem } from '../../contract/feedback';
import { INBOX_EXCERPT_LENGTH } from '../../contract/feedback-constants';
import { insertConversation } from '../../server/db/repositories/conversations';
import { insertMessage } from '../../server/db/repositories/messages';
import { findUserByEmail, type UserRecord } from '../../server/db/repositories/users';
import { isoFromNow } from '../../server/db/timestamps';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

type Headers = Record<string, string>;

function request(app: FastifyInstance, method: 'GET' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) {
  return app.inject({ method, url: `${API}${url}`, headers, payload });
}

describe(`reply ratings and the feedback inbox (${dbKind})`, () => {
  let t: TestApp;
  let user: UserRecord;
  let other: UserRecord;
  let foreign: UserRecord;
  let foreignClientId: string;
  const as: Record<'user' | 'colleague' | 'admin' | 'super' | 'foreign' | 'foreignAdmin', Headers> = {} as never;

  /** A conversation of `owner` with one question and its reply; returns both message ids. */
  async function exchange(owner: UserRecord, reply = 'Paris is the capital of France.') {
    const conversation = await insertConversation(t.db, { user_id: owner.id, client_id: owner.client_id, title: 'Capitals', answering_until: isoFromNow(-1000) });
    const question = await insertMessage(t.db, { conversation_id: conversation.id, user_id: owner.id, sender: 'user', content: 'Capital of France?', status: 'complete' });
    const answer = await insertMessage(t.db, { conversation_id: conversation.id, user_id: owner.id, sender: 'Assistant', content: reply, status: 'complete' });
    return { conversationId: conversation.id, questionId: question.id, replyId: answer.id };
  }

  const rate = (messageId: string, body: object, headers = as.user) => request(t.app, 'PUT', `/chat/messages/${messageId}/rating`, headers, body);
  const inbox = (query = '', headers = as.admin) => request(t.app, 'GET', `/feedbacks/inbox${query}`, headers);
  const inboxItems = async (query = '', headers = as.admin): Promise<InboxItem[]> => {
    const res = await inbox(query, headers);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(inboxPage).parse(res.json()).data.items;
  };
  const shownRating = async (conversationId: string, replyId: string, headers = as.user) => {
    const res = await request(t.app, 'GET', `/chat/conversations/${conversationId}/messages`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(conversationMessages).parse(res.json()).data.messages.find((m) => m.id === replyId)?.rating;
  };
  async function feedbackAt(author: UserRecord, type: 'feedback' | 'report', description: string, createdAt: string) {
    await t.db
      .insertInto('feedback_submissions')
      .values({ id: randomUUID(), user_id: author.id, client_id: author.client_id, type, level: type === 'feedback' ? 'GOOD' : null, description, created_at: createdAt })
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp();
    user = (await findUserByEmail(t.db, 'user@demo.local'))!;
    other = await addUser(t.db, { client_id: user.client_id, name: 'Colleague', email: 'colleague@demo.local', status: 'active', image_url: null, department_id: null, unit_id: null });
    const org = await createOrganisation(t.db, { name: 'Elsewhere Ltd' });
    foreignClientId = org.client.id;
    foreign = await addUser(t.db, { client_id: org.client.id, name: 'Foreigner', email: 'someone@elsewhere.test', status: 'active', image_url: null, department_id: org.department.id, unit_id: org.unit.id });
    await addUser(t.db, { client_id: org.client.id, name: 'Foreign Admin', email: 'admin@elsewhere.test', role: 'admin', status: 'active', image_url: null, department_id: null, unit_id: null });
    for (const [key, email] of [
      ['user', 'user@demo.local'],
      ['colleague', 'colleague@demo.local'],
      ['admin', 'admin@demo.local'],
      ['super', 'super@demo.local'],
      ['foreign', 'someone@elsewhere.test'],
      ['foreignAdmin', 'admin@elsewhere.test'],
    ] as const) {
      as[key] = bearer((await login(t.app, email)).access_token);
    }
  });
  afterAll(() => t.close());

  it('stores the owner\'s thumbs up, changes it to down with a comment, clears it, and the messages carry it', async () => {
    const { conversationId, replyId } = await exchange(user);
    expect(await shownRating(conversationId, replyId)).toBeNull();

    const up = await rate(replyId, { rating: 'up' });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().message).toBe('Thanks for rating this reply');
    expect(successEnvelope(replyRatingResult).parse(up.json()).data).toEqual({ message_id: replyId, rating: 'up', comment: null });
    expect(await shownRating(conversationId, replyId)).toBe('up');

    const down = await rate(replyId, { rating: 'down', comment: '  It missed the question.  ' });
    expect(down.statusCode, down.body).toBe(200);
    expect(await shownRating(conversationId, replyId)).toBe('down');
    const rows = await t.db.selectFrom('reply_ratings').selectAll().where('message_id', '=', replyId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: user.id, client_id: user.client_id, rating: 'down', comment: 'It missed the question.' });

    const cleared = await rate(replyId, { rating: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await shownRating(conversationId, replyId)).toBeNull();
    expect(await t.db.selectFrom('reply_ratings').select('id').where('message_id', '=', replyId).execute()).toHaveLength(0);
  });

  it("answers 404 for someone else's reply (same organisation or another), a question and an unknown id", async () => {
    const mine = await exchange(user);
    const colleagues = await exchange(other);
    const foreigners = await exchange(foreign);
    const cases: [string, Headers][] = [
      [colleagues.replyId, as.user],
      [foreigners.replyId, as.user],
      [mine.replyId, as.colleague],
      [mine.replyId, as.foreign],
      [mine.replyId, as.admin],
      [mine.questionId, as.user],
      [randomUUID(), as.user],
    ];
    for (const [messageId, headers] of cases) {
      const res = await rate(messageId, { rating: 'down' }, headers);
      expect(res.statusCode, res.body).toBe(404);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Reply not found');
    }
    expect(await t.db.selectFrom('reply_ratings').select('id').where('message_id', 'in', [mine.replyId, mine.questionId, colleagues.replyId, foreigners.replyId]).execute()).toHaveLength(0);
  });

  it('refuses bad input with a sentence naming the field, and asks for a sign-in', async () => {
    const { replyId } = await exchange(user);
    const cases: [object, string, string][] = [
      [{}, 'rating', 'rating must be up or down'],
      [{ rating: 'sideways' }, 'rating', 'rating must be up or down'],
      [{ rating: 'down', comment: 'x'.repeat(1_001) }, 'comment', 'Comment cannot be more than 1,000 characters'],
      [{ rating: 'down', comment: 7 }, 'comment', 'comment must be text'],
    ];
    for (const [payload, field, sentence] of cases) {
      const res = await rate(replyId, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(errorEnvelope.parse(res.json()).fields?.[field]).toBe(sentence);
    }
    expect((await rate(replyId, { rating: 'up' }, {})).statusCode).toBe(401);
  });

  it("shows an admin their organisation's feedback, reports and ratings newest first, by kind and page, and nobody else's", async () => {
    await t.db.deleteFrom('reply_ratings').execute();
    await t.db.deleteFrom('feedback_submissions').execute();
    await feedbackAt(user, 'feedback', 'Loving it', '2026-01-01T10:00:00.000Z');
    await feedbackAt(other, 'report', 'Copy button broken', '2026-01-01T12:00:00.000Z');
    await feedbackAt(foreign, 'report', 'Foreign report', '2026-01-01T13:00:00.000Z');
    // Markdown with a marker: the inbox quotes it as text.
    const mine = await exchange(user, `::image{url="/api/v1/files/a.png" alt="A &quot;chart&quot;"}\n\n## Plan\n\n- **A long** reply.\n${' A long reply.'.repeat(40)}`);
    expect((await rate(mine.replyId, { rating: 'down', comment: 'Too long' })).statusCode).toBe(200);
    await t.db.updateTable('reply_ratings').set({ rated_at: '2026-01-01T11:00:00.000Z' }).where('message_id', '=', mine.replyId).execute();
    const foreigners = await exchange(foreign);
    expect((await rate(foreigners.replyId, { rating: 'up' }, as.foreign)).statusCode).toBe(200);

    const all = await inboxItems();
    expect(all.map((i) => [i.kind, i.text])).toEqual([
      ['report', 'Copy button broken'],
      ['rating', 'Too long'],
      ['feedback', 'Loving it'],
    ]);
    expect(all[1]).toMatchObject({ rating: 'down', level: null, user_name: user.name, user_email: user.email, client_name: 'Demo Organisation' });
    const excerpt = all[1]!.reply_excerpt!;
    const text = `[Image: A "chart"] Plan A long reply.${' A long reply.'.repeat(40)}`;
    // Cut after a word, at most INBOX_EXCERPT_LENGTH characters with its ellipsis.
    expect(excerpt.endsWith('…')).toBe(true);
    expect(text.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(text[excerpt.length - 1]).toBe(' ');
    expect(excerpt.length).toBeLessThanOrEqual(INBOX_EXCERPT_LENGTH);
    expect(excerpt.length).toBeGreaterThan(INBOX_EXCERPT_LENGTH - 20);
    expect(all[2]).toMatchObject({ level: 'GOOD', rating: null, reply_excerpt: null });

    expect((await inboxItems('?kind=rating')).map((i) => i.text)).toEqual(['Too long']);
    expect((await inboxItems('?kind=report')).map((i) => i.text)).toEqual(['Copy button broken']);
    expect((await inboxItems('?kind=feedback')).map((i) => i.text)).toEqual(['Loving it']);

    const second = await inbox('?page=2&page_size=2');
    expect(successEnvelope(inboxPage).parse(second.json()).data).toMatchObject({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    expect(successEnvelope(inboxPage).parse(second.json()).data.items.map((i) => i.text)).toEqual(['Loving it']);

    // The other organisation's admin sees theirs only.
    expect((await inboxItems('', as.foreignAdmin)).map((i) => [i.kind, i.text ?? i.rating])).toEqual([
      ['rating', 'up'],
      ['report', 'Foreign report'],
    ]);
  });

  it('lets the superuser read every organisation or one, and refuses admins another organisation and people the inbox', async () => {
    const everyone = await inboxItems('', as.super);
    expect(new Set(everyone.map((i) => i.client_name))).toEqual(new Set(['Demo Organisation', 'Elsewhere Ltd']));
    const one = await inboxItems(`?client_id=${foreignClientId}`, as.super);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((i) => i.client_name === 'Elsewhere Ltd')).toBe(true);
    const unknown = await inbox(`?client_id=${randomUUID()}`, as.super);
    expect(unknown.statusCode).toBe(404);
    expect(errorEnvelope.parse(unknown.json()).detail).toBe('Organisation not found');

    const otherOrg = await inbox(`?client_id=${foreignClientId}`);
    expect(otherOrg.statusCode).toBe(403);
    expect(errorEnvelope.parse(otherOrg.json()).detail).toBe("You can only see your own organisation's feedback");
    expect((await inbox('', as.user)).statusCode).toBe(403);
    expect((await inbox('', {})).statusCode).toBe(401);
    const bad = await inbox('?kind=praise');
    expect(bad.statusCode).toBe(400);
    expect(errorEnvelope.parse(bad.json()).detail).toBe('kind must be one of feedback, report, rating');
  });

  it('drops a rating from the inbox when its conversation is deleted', async () => {
    const { conversationId, replyId } = await exchange(user, 'Soon gone');
    expect((await rate(replyId, { rating: 'up' })).statusCode).toBe(200);
    expect((await inboxItems('?kind=rating')).some((i) => i.reply_excerpt === 'Soon gone')).toBe(true);
    expect((await request(t.app, 'DELETE', `/chat/conversations/${conversationId}`, as.user)).statusCode).toBe(200);
    expect((await inboxItems('?kind=rating')).some((i) => i.reply_excerpt === 'Soon gone')).toBe(false);
  });
});
