import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createDb } from '../../../server/db/create-db';
import { insertConversation, releaseAnsweringLease } from '../../../server/db/repositories/conversations';
import { insertMessage } from '../../../server/db/repositories/messages';
import { insertUsageLog } from '../../../server/db/repositories/usage-logs';
import { findUserByEmail } from '../../../server/db/repositories/users';
import { countTextTokens } from '../../../server/services/chat/usage';
import { OFFLINE_SOURCE, offlineReply } from '../../../server/llm/offline';
import { numberedLabel, seedConversation } from '../../bench/seed-conversation';
import { apiTokenOf, createConversationByApi, userMessages } from '../paths/paths-support';
import { withinRateLimits } from './rate-limits';
import { accounts, isLocalServer, localDataDir } from './accounts';

/**
 * A conversation for a test to start from (one question and its whole reply), when the test is not about how it
 * was asked: written straight into the local server's database with the server's own repositories, the offline
 * responder's reply as it would have streamed it (about 6 s of words the test does not look at). Titled by the
 * question, as the server titles a conversation without a model, and entered in the usage ledger as the server
 * records a reply (one 'reply' row of the offline model: the usage dashboard and reports count it as a query).
 * Against staging (no database to write to) it is asked through the API instead. Returns its id.
 */
export async function seededConversation(request: APIRequestContext, question: string, email = accounts.user): Promise<string> {
  if (!isLocalServer) return createConversationByApi(request, await apiTokenOf(request, email), question);
  return whileLocked(() => seedOnce(question, email));
}

/** Words in the kept long conversation's first question, by which a deployment's run finds it again. */
const KEPT_LONG = 'Kept by the e2e paths: a conversation longer than a page.';
/** The long conversation's messages: more than one page (50) and less than two, so one earlier page holds the first. */
export const LONG_MESSAGES = 60;

/** The long conversation's first question, once its earliest page is on screen (a reply may quote it). */
export const firstLongQuestion = (page: Page) => userMessages(page).filter({ hasText: numberedLabel(1, LONG_MESSAGES) });

/**
 * A conversation of LONG_MESSAGES messages (questions and replies in turn) whose questions start with their
 * numberedLabel, for paths that scroll up to a page before the latest. Locally it is seeded into the database
 * (every message numbered) and deleted by its path. Against a deployment it is asked question by question through
 * the API (30 real replies, some two minutes of the offline responder: the test's time grows by ten minutes) and
 * kept: later runs find it by its first question's words and reuse it, and one left unfinished by a stopped run is
 * deleted and asked again.
 */
export async function longConversation(request: APIRequestContext, email = accounts.user): Promise<string> {
  const count = LONG_MESSAGES;
  if (isLocalServer) return (await whileLocked(() => seedConversation(localDataDir, email, count, { numbered: true }))).id;
  const token = await apiTokenOf(request, email);
  const headers = { Authorization: `Bearer ${token}` };
  const found = await withinRateLimits(() => request.get('/api/v1/chat/conversations/search', { headers, params: { query: KEPT_LONG } }));
  expect(found.ok(), await found.text()).toBe(true);
  for (const { id } of ((await found.json()) as { data: { conversations: Array<{ id: string }> } }).data.conversations) {
    const latest = await withinRateLimits(() => request.get(`/api/v1/chat/conversations/${id}/messages`, { headers }));
    const page = ((await latest.json()) as { data: { messages: Array<{ sender: string; content: string; status: string }>; earlier_cursor: string | null } }).data;
    const lastQuestion = page.messages.filter((m) => m.sender === 'user').at(-1);
    const whole = page.earlier_cursor !== null && lastQuestion?.content.startsWith(numberedLabel(count - 1, count)) && page.messages.at(-1)?.status === 'complete';
    if (whole) return id;
    await withinRateLimits(() => request.delete(`/api/v1/chat/conversations/${id}`, { headers }));
  }
  test.setTimeout(test.info().timeout + 10 * 60_000);
  const id = await createConversationByApi(request, token, `${numberedLabel(1, count)} ${KEPT_LONG}`);
  for (let n = 3; n < count; n += 2) await createConversationByApi(request, token, numberedLabel(n, count), id);
  return id;
}

/**
 * A write into the local server's database (one transaction), tried again when it finds the database locked: the
 * server may hold the write lock past busy_timeout on a loaded machine ('database is locked' about once a full run
 * at load 20). Nothing of a failed try is kept, so trying again writes it once.
 */
export async function whileLocked<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || attempt === 3) throw err;
    }
  }
}

async function seedOnce(question: string, email: string): Promise<string> {
  const db = createDb({ databaseUrl: undefined, sqlitePath: path.join(localDataDir, 'tanya.db') });
  try {
    const user = await findUserByEmail(db, email);
    if (!user) throw new Error(`no user ${email} in the e2e database`);
    return await db.transaction().execute(async (trx) => {
      // Created with a lease that is already over, then released: nothing is being answered.
      const lease = new Date(0).toISOString();
      const title = question.split('\n')[0]!.slice(0, 200);
      const conversation = await insertConversation(trx, { user_id: user.id, client_id: user.client_id, title, answering_until: lease });
      await insertMessage(trx, { conversation_id: conversation.id, user_id: user.id, sender: 'user', content: question, status: 'complete' });
      const reply = offlineReply(question);
      const answer = await insertMessage(trx, { conversation_id: conversation.id, user_id: user.id, sender: 'Assistant', content: reply, status: 'complete' });
      await releaseAnsweringLease(trx, conversation.id, lease, true);
      await insertUsageLog(trx, {
        user_id: user.id,
        client_id: user.client_id,
        department_id: user.department_id,
        unit_id: user.unit_id,
        conversation_id: conversation.id,
        message_id: answer.id,
        purpose: 'reply',
        provider: OFFLINE_SOURCE.provider,
        model: OFFLINE_SOURCE.model,
        prompt_tokens: countTextTokens(question),
        completion_tokens: countTextTokens(reply),
        // Unknown models cost nothing (server/llm/prices.ts), the offline one among them.
        cost_usd: 0,
        duration_ms: 0,
      });
      return conversation.id;
    });
  } finally {
    await db.destroy();
  }
}

/** A seeded conversation (see seededConversation) opened on `page`, its reply shown; returns its id. */
export async function openSeededConversation(page: Page, question: string): Promise<string> {
  const id = await seededConversation(page.request, question);
  await page.goto(`/chat?id=${encodeURIComponent(id)}`);
  await expect(page.getByRole('article', { name: 'Assistant message' }).last()).not.toBeEmpty();
  return id;
}
