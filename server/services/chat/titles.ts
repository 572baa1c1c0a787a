import { DEFAULT_CONVERSATION_TITLE, TITLE_MAX_LENGTH } from '../../../contract/chat-constants';
import type { AppContext } from '../../context';
import { replaceDefaultTitle } from '../../db/repositories/conversations';
import { listMessages } from '../../db/repositories/messages';
import { findUserById, type UserRecord } from '../../db/repositories/users';
import { collectReply, describeError, type ChatTurn } from '../../llm/types';
import { withoutErrorMarkers } from './chat';
import { sendGateFor } from './send-gate';
import { recordModelCall, resolveUsage } from './usage';

/** How much of the question and the answer the title model reads. */
const EXCERPT_CHARS = 1_000;

const TITLE_INSTRUCTIONS =
  'You name chat conversations. Reply with a title of at most 6 words for the conversation below, ' +
  'in the language of the question. Reply with the title only: no quotes, no trailing punctuation.';

/**
 * Asks for the conversation's title as a job ('conversation-title'), so a process that stops before the title is made
 * leaves it to another. One job per conversation. Never throws: a title is not worth failing the reply's ending for.
 */
export async function requestTitle(ctx: AppContext, userId: string, conversationId: string, messageId: string): Promise<void> {
  try {
    await ctx.jobs.enqueue('conversation-title', { userId, conversationId, messageId }, { key: `conversation-title:${conversationId}` });
  } catch (err) {
    ctx.log.error({ err: describeError(err), conversationId }, 'asking for a conversation title failed');
  }
}

/** The 'conversation-title' job. */
export async function titleJob(ctx: AppContext, payload: { userId: string; conversationId: string; messageId: string }): Promise<void> {
  const user = await findUserById(ctx.db, payload.userId);
  if (!user) return;
  await makeTitle(ctx, user, payload.conversationId, payload.messageId);
}

/**
 * Names a conversation after its first exchange: by asking the model, or from the question itself when there is no
 * model, when the reply failed (the model just did not answer), or when asking for a title fails or brings nothing:
 * a conversation whose first exchange went wrong is still found again by name. Only a conversation still called
 * 'New Conversation' is renamed (a rename by the user wins). Titles are stored whole (up to the spec's 200
 * characters) and only cut on screen, so nothing here adds an ellipsis.
 */
export async function makeTitle(ctx: AppContext, user: UserRecord, conversationId: string, messageId: string): Promise<void> {
  const log = ctx.log.child({ conversationId });
  // Its database work waits its turn with the sends' (see send-gate.ts): a burst of new chats brings as many titles.
  const gate = sendGateFor(ctx.db);
  const messages = await gate.run(() => listMessages(ctx.db, conversationId));
  if (messages.length !== 2) return;
  const [question, answer] = messages;

  let title: string | undefined;
  if (!ctx.llm.offline && answer.status === 'complete') {
    const prompt: ChatTurn[] = [
      { role: 'system', content: TITLE_INSTRUCTIONS },
      {
        role: 'user',
        content: `Question:\n${question.content.slice(0, EXCERPT_CHARS)}\n\nAnswer:\n${withoutErrorMarkers(answer.content).slice(0, EXCERPT_CHARS)}`,
      },
    ];
    const started = performance.now();
    try {
      const { text, finish } = await collectReply(ctx.llm, { messages: prompt, reasoningEffort: 'low', signal: ctx.closing });
      const usage = resolveUsage(finish.usage, prompt, text);
      const durationMs = performance.now() - started;
      await gate.run(() => recordModelCall(ctx, { user, conversationId, messageId, purpose: 'title', source: finish.source, usage, durationMs }));
      title = cleanModelTitle(text);
    } catch (err) {
      log.warn({ err: describeError(err) }, 'making a title failed; the question names the conversation');
    }
    if (title === undefined) log.warn('the model gave no title; the question names the conversation');
  }
  title ??= questionTitle(question.content);
  if (!title) return;
  await gate.run(() => replaceDefaultTitle(ctx.db, conversationId, DEFAULT_CONVERSATION_TITLE, title));
}

/** The first line, without "Title:", quotes, markdown emphasis or a final full stop; at most 200 characters. */
export function cleanModelTitle(raw: string): string | undefined {
  const line = raw
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return undefined;
  const title = line
    .replace(/^#+\s*/, '')
    .replace(/^title\s*:\s*/i, '')
    .replace(/^["'“‘`*_]+|["'”’`*_]+$/g, '')
    .replace(/[.。]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!title) return undefined;
  return title.length > TITLE_MAX_LENGTH ? title.slice(0, TITLE_MAX_LENGTH).trimEnd() : title;
}

/**
 * The question's first line as a title: whitespace collapsed and, past the spec's 200 characters, cut at the last
 * word that fits (no ellipsis: the screen shows one where the title does not fit).
 */
export function questionTitle(question: string): string | undefined {
  const line = question
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0);
  if (!line) return undefined;
  if (line.length <= TITLE_MAX_LENGTH) return line;
  const room = line.slice(0, TITLE_MAX_LENGTH + 1);
  const space = room.lastIndexOf(' ');
  return (space > 0 ? room.slice(0, space) : room.slice(0, TITLE_MAX_LENGTH)).trimEnd();
}
