import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createDb } from '../../../server/db/create-db';
import { insertConversation, releaseAnsweringLease } from '../../../server/db/repositories/conversations';
import { insertMessage } from '../../../server/db/repositories/messages';
import { findUserByEmail } from '../../../server/db/repositories/users';
import { offlineReply } from '../../../server/llm/offline';
import { apiTokenOf, createConversationByApi } from '../paths/paths-support';
import { accounts, isLocalServer, localDataDir } from './accounts';

/**
 * A conversation for a test to start from (one question and its whole reply), when the test is not about how it
 * was asked: written straight into the local server's database with the server's own repositories, the offline
 * responder's reply as it would have streamed it (about 6 s of words the test does not look at). Titled by the
 * question, as the server titles a conversation without a model. Against staging (no database to write to) it is
 * asked through the API instead. Returns its id.
 */
export async function seededConversation(request: APIRequestContext, question: string, email = accounts.user): Promise<string> {
  if (!isLocalServer) return createConversationByApi(request, await apiTokenOf(request, email), question);
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
      await insertMessage(trx, { conversation_id: conversation.id, user_id: user.id, sender: 'Assistant', content: offlineReply(question), status: 'complete' });
      await releaseAnsweringLease(trx, conversation.id, lease, true);
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
