import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import {
  CONNECTION_FAILED_TITLE,
  FAIR_USE_REFUSED_TITLE,
  FETCH_MESSAGES_FAILED,
  MESSAGES_REFRESHED,
  NO_MESSAGES_FOUND,
  refreshFailedText,
  SEND_REQUEST_FAILED,
  SEND_STREAM_FAILED,
  STOP_FAILED,
} from '../../../machines/chat-send.machine';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE } from '../../../contract/chat-constants';
import { CONVERSATION_NOT_FOUND, CONVERSATION_NOT_FOUND_TEXT } from '../../../src/features/chat/conversation-not-found';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, signInAndLand } from '../helpers/accounts';
import { chatSendMachine, chatSendPaths as paths, GONE, LONG, MID_REPLY, OTHER } from './chat-send.paths-model';
import {
  ask,
  assistantMessages,
  revealConversationLink,
  errorEnvelope,
  openConversationId,
  signedInToken,
  skipWithoutWebSearch,
  expectReplyComplete,
  unique,
  userMessages,
  type Step,
} from './paths-support';
import { firstLongQuestion, longConversation, seededConversation } from '../helpers/seed';
import { withinRateLimits } from '../helpers/rate-limits';
import { cutNextSend, holdFollow, holdNextWords, releaseFollow, releaseWords, streamFaults } from '../helpers/stream-faults';

/**
 * chat-send's generated paths (machines/chat-send.machine.ts), driven through the real chat UI; the model is in
 * chat-send.paths-model.ts. The person's events are sending, editing a question, opening another conversation
 * or a new chat and clicking Refresh message; the stream's records (control, words, done) come from the real
 * server. A reply written elsewhere is followed after a reload in the middle of a reply (when the shared machine
 * is too slow to reload before the reply ends, that one load is answered as the server did a moment earlier).
 *
 * A long conversation (more than one page of messages, seeded into the local database) opens on its latest page;
 * scrolling to the top loads the page before it.
 *
 * The long conversation is seeded into the local database; on a deployment it is asked through the API once (thirty
 * real replies, some two minutes) and kept for later runs.
 * Generated locally and against a deployment alike, the faults forced in the browser with `page.route` stubs: the send failing (`stream.failed`: the request aborted), loading
 * a conversation failing (`xstate.error.actor.loadMessages`: a 500), Refresh message failing
 * (`xstate.error.actor.loadRecent`: a 500 with the server's sentence) and the earlier page failing
 * (`xstate.error.actor.loadEarlier`: a 500).
 *
 * Also forced with stubs, locally and against a deployment: a link to a conversation the server does not have (a
 * random id: the server's own 404, 'Conversation not found'), the question refused for the month's fair use (the
 * server's 429 envelope with its code, `stream.failed` with code fair_use_exceeded: a deployment's allowance is not
 * spent on purpose), Stop refused (a 500 on the stop: 'Failed to stop the reply', the reply goes on) and Refresh
 * message answered with no messages at all ('No messages found in the response'). A reply's further words
 * (`stream.chunk` in streaming) are seen by a page-side watch of the reply being written: its text grew more than
 * once, whatever its words and speed.
 *
 * Forced in the page itself (test/e2e/helpers/stream-faults.ts wraps its fetch, as a route cannot answer part of a
 * stream), locally and against a deployment: the send's stream cut after its control record (`stream.failed` in
 * the stream: the reply has its ids, so Regenerate is offered, and Refresh message finds the reply still being
 * written and follows it), a browsing reply's words held until 'Searching the web' was seen, and a followed
 * reply's stream held after its text so far, for Stop while it is followed. A followed reply that has ended before
 * its stream opened (a busy machine) is answered as the server did a moment earlier; the follow failing is its
 * stream refused and its checks answered 500.
 *
 * Not generated, because nothing a browser does can cause them (chatSendUnforceable in the paths model lists them
 * with the reasons; the model test covers them): the send actor itself failing, the follow child failing,
 * `stream.done` or `stream.error` before any conversation. Not generated yet, though a browser could force it: an
 * earlier page that no longer fits after a refresh (the long conversation).
 */
const REFRESH_DETAIL = 'The database is unavailable';

const isMessagesLoad = (id: string) => (url: URL) => url.pathname.endsWith(`/chat/conversations/${id}/messages`);
const isRecentLoad = (url: URL) => url.pathname.endsWith('/messages/recent');
const isEarlierLoad = (url: URL) => url.pathname.endsWith('/messages') && url.searchParams.has('before');
/** Scrolls the conversation to its top, as a reader does to see what came before. */
const scrollToTop = (page: Page) => page.getByTestId('message-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
const SEND = '**/api/v1/chat/messages*';
const refreshButton = (page: Page) => page.getByRole('button', { name: 'Refresh message' });
const isStop = (url: URL) => /\/chat\/messages\/[^/]+\/stop$/.test(url.pathname);
const isFollowStream = (url: URL) => /\/chat\/messages\/[^/]+\/stream$/.test(url.pathname);

/** The reply's stream is cut after its control record (and what the server said it was doing), before its words. */
const cutAhead = (ahead: Step[]) => {
  const end = ahead.find((e) => e.type !== 'stream.control' && e.type !== 'stream.status');
  return ahead[0]?.type === 'stream.control' && end?.type === 'stream.failed' && end.phase === 'stream';
};

/** The events of the next time the reply is followed, from `ahead` on: up to the follow's own end. */
function nextFollowing(ahead: Step[]): Step[] {
  const end = ahead.findIndex((e) => e.type === 'xstate.done.actor.follow');
  return end === -1 ? [] : ahead.slice(0, end + 1);
}
const followFails = (segment: Step[]) => segment.some((e) => e.type === 'xstate.done.actor.follow' && (e.output as { status: string }).status === 'failed');

/**
 * Makes the next follow fail as it does when the server cannot be reached: its stream refused and each check a 500
 * (the follow stops at a failed check).
 */
async function failFollow(page: Page) {
  await page.route(isFollowStream, (route) => route.abort('connectionfailed'));
  await page.route(isRecentLoad, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
}

/** Waits until the server has ended the open conversation's reply (a stream cut or a follow failed leaves it going). */
async function replyEnded(page: Page) {
  const headers = { Authorization: `Bearer ${await signedInToken(page)}` };
  const id = openConversationId(page)!;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/chat/conversations/${id}/messages/recent`, { headers });
        const body = (await res.json()) as { data: { messages: Array<{ status: string }> } };
        return body.data.messages.some((m) => m.status === 'streaming');
      },
      { timeout: 60_000 },
    )
    .toBe(false);
}

/**
 * The next read of the conversation (`read`) answered as the server did a moment earlier, when the reply has ended
 * since: still being written, with its first words. On a busy machine the page is slower than the reply.
 */
async function readsReplyWritten(page: Page, read: (url: URL) => boolean) {
  await page.route(
    read,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { messages: Array<{ status: string; content: string }> } };
      const last = body.data.messages.at(-1)!;
      if (last.status === 'complete') Object.assign(last, { status: 'streaming', content: last.content.slice(0, 60) });
      await route.fulfill({ response, json: body });
    },
    { times: 1 },
  );
}

/**
 * A page-side watch of the reply being written (the busy assistant message): every distinct length its text had,
 * since the last send. A reply's words come and go faster than a step can look, so the page keeps count.
 */
const watchReplies = () => {
  const w = window as unknown as { replyLengths: Set<number> };
  w.replyLengths = new Set();
  new MutationObserver(() => {
    const busy = document.querySelector('article[aria-busy="true"]');
    const length = busy?.textContent?.trim().length ?? 0;
    if (busy && length > 0) w.replyLengths.add(length);
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
};
const replyLengths = (page: Page) => page.evaluate(() => (window as unknown as { replyLengths: Set<number> }).replyLengths.size);
const forgetReplyLengths = (page: Page) => page.evaluate(() => (window as unknown as { replyLengths: Set<number> }).replyLengths.clear());

/** What one browser test has in hand: the real ids behind the model's, and what it asked. */
interface World {
  ids: Map<string | null, string>;
  questions: Map<string, string>;
  lastQuestion: string;
  /** Stop was clicked while the reply was followed: whether the server had ended it first is a matter of speed. */
  stoppedWhileFollowing: boolean;
}

/** Switches web browsing on or off in the features menu (the demo organisation is premium), as the next send asks. */
async function setBrowsing(page: Page, on: boolean) {
  const features = page.getByRole('button', { name: /^Features/ });
  if ((await features.textContent())?.includes('Web Browsing') === on) return;
  await features.click();
  await page.getByRole('menuitemcheckbox', { name: 'Web Browsing' }).click();
  if (on) await expect(features).toContainText('Web Browsing');
  else await expect(features).not.toContainText('Web Browsing');
}

/** A reply ended whole or stopped: nothing pending, the box takes the next question. */
async function replyComplete(page: Page, w: World, stopped: boolean) {
  await expectReplyComplete(page);
  // A stopped reply keeps what was written and says it was stopped; a whole one ends with the demo's hint. A reply
  // stopped while followed may have ended on the server first (the stop then changes nothing).
  if (!w.stoppedWhileFollowing) {
    await expect(assistantMessages(page).last().getByText('Stopped', { exact: true })).toHaveCount(stopped ? 1 : 0);
    if (isLocalServer && !stopped) await expect(assistantMessages(page).last()).toContainText('LLM_MODEL=gpt-4o-mini');
  }
  await expect(refreshButton(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
}

/** What a person does for each generated event, and what the screen then shows; `next` tells how it should end. */
async function perform(page: Page, w: World, event: Step, ahead: Step[]) {
  const next = ahead[0];
  switch (event.type) {
    case 'message.submit':
    case 'message.edit': {
      if (cutAhead(ahead)) await cutNextSend(page);
      // The words wait until 'Searching the web' has been seen (a deployment's search may be quick).
      if (ahead[1]?.type === 'stream.status') await holdNextWords(page);
      if (next?.type === 'stream.failed' && next.code === FAIR_USE_EXCEEDED_CODE) {
        await page.route(SEND, (route) =>
          route.fulfill({ status: 429, json: { status: 'error', detail: FAIR_USE_EXCEEDED, message: FAIR_USE_EXCEEDED, code: FAIR_USE_EXCEEDED_CODE } }),
        );
      } else if (next?.type === 'stream.failed') await page.route(SEND, (route) => route.abort('connectionfailed'));
      await forgetReplyLengths(page);
      w.lastQuestion = unique(event.type === 'message.edit' ? 'Edited question' : 'Plan the offsite');
      await setBrowsing(page, event.browsing === true);
      if (event.type === 'message.submit') {
        await ask(page, w.lastQuestion);
        await expect(userMessages(page).last()).toContainText(w.lastQuestion);
        return;
      }
      const first = userMessages(page).first();
      await first.hover();
      await first.getByRole('button', { name: 'Edit message' }).click();
      await page.getByRole('textbox', { name: 'Edit message' }).fill(w.lastQuestion);
      await page.getByRole('button', { name: 'Save & Send' }).click();
      // The edited question replaces the first one and what followed it.
      await expect(userMessages(page)).toHaveCount(1);
      await expect(userMessages(page)).toContainText(w.lastQuestion);
      return;
    }
    case 'stream.control': {
      // The control record names the conversation: a new chat's URL gains its id.
      await expect(page).toHaveURL(/\/chat\?id=/);
      const id = openConversationId(page)!;
      if (!w.ids.has(event.conversationId as string)) w.ids.set(event.conversationId as string, id);
      expect(id).toBe(w.ids.get(event.conversationId as string));
      return;
    }
    case 'stream.status':
      // The server searches the web before the model is asked: the reply's place says so instead of 'Thinking'.
      await expect(assistantMessages(page).last().getByRole('status')).toHaveText('Searching the web');
      await releaseWords(page);
      return;
    case 'stream.chunk':
      if (event.text !== 'Answer') {
        // More words: the reply being written grew again (seen by the page's watch, however fast it was).
        await expect.poll(() => replyLengths(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
        return;
      }
      // The first words replace the thinking indicator.
      await expect(assistantMessages(page).last().getByText(/^(Thinking|Searching the web)$/)).toHaveCount(0, { timeout: 20_000 });
      await expect(assistantMessages(page).last()).not.toBeEmpty();
      return;
    case 'xstate.done.actor.follow':
      if ((event.output as { status: string }).status === 'failed') {
        // The follow could not read the reply: said as a lost connection, with Refresh message; the reply is shown as
        // last read, no longer as being written.
        await expect(refreshButton(page)).toBeVisible();
        await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
        await expect(page.locator('article[aria-busy="true"]')).toHaveCount(0);
        await page.unroute(isFollowStream);
        await page.unroute(isRecentLoad);
        // What follows finds the reply as the server ends it.
        await replyEnded(page);
        return;
      }
      return replyComplete(page, w, false);
    case 'stream.done':
      return replyComplete(page, w, event.stopped === true);
    case 'reply.stop':
      if (next?.type === 'xstate.error.actor.stopReply') await page.route(isStop, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await page.getByRole('button', { name: 'Stop reply' }).click();
      // A followed reply's stream was held for the click: it goes on now.
      if (await releaseFollow(page)) w.stoppedWhileFollowing = true;
      return;
    case 'xstate.error.actor.stopReply':
      // The stop was refused: said at once, and the reply goes on to its end, whole.
      await expect(page.getByText(STOP_FAILED)).toBeVisible();
      await expectReplyComplete(page);
      await expect(assistantMessages(page).last().getByText('Stopped', { exact: true })).toHaveCount(0);
      await page.unroute(isStop);
      return;
    case 'xstate.done.actor.stopReply':
      // The stop was answered: nothing is pending, the box takes the next question.
      await expect(page.getByRole('button', { name: 'Stop reply' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
      return;
    case 'message.regenerate': {
      // After a stream cut the server is still writing the reply, and takes no new question until it has ended.
      if (await refreshButton(page).isVisible()) await replyEnded(page);
      if (cutAhead(ahead)) await cutNextSend(page);
      else if (next?.type === 'stream.failed') await page.route(SEND, (route) => route.abort('connectionfailed'));
      await forgetReplyLengths(page);
      await setBrowsing(page, false);
      const questions = await userMessages(page).count();
      const reply = assistantMessages(page).last();
      await reply.hover();
      await reply.getByRole('button', { name: 'Regenerate reply' }).click();
      // The same question again, its old reply replaced by the new one being written.
      await expect(userMessages(page)).toHaveCount(questions);
      await expect(assistantMessages(page)).toHaveCount(questions);
      return;
    }
    case 'stream.failed':
      if (event.code === FAIR_USE_EXCEEDED_CODE) {
        // Not a failure to retry: the reply says why, no Refresh message, and the box is free again.
        await expect(assistantMessages(page).last()).toContainText(FAIR_USE_REFUSED_TITLE);
        await expect(assistantMessages(page).last()).toContainText(FAIR_USE_EXCEEDED);
        await expect(refreshButton(page)).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
        await page.unroute(SEND);
        return;
      }
      // The same error box as a reply the model failed to write: its title, then the machine's sentence.
      if (event.phase === 'stream') {
        // Cut after its control record: the question and the reply have their ids, so it can also be asked again.
        await expect(assistantMessages(page).last()).toContainText(`${CONNECTION_FAILED_TITLE}${SEND_STREAM_FAILED}`);
        await assistantMessages(page).last().hover();
        await expect(assistantMessages(page).last().getByRole('button', { name: 'Regenerate reply' })).toBeVisible();
      } else {
        await expect(assistantMessages(page).last()).toContainText(`${CONNECTION_FAILED_TITLE}${SEND_REQUEST_FAILED}`);
      }
      await expect(refreshButton(page)).toBeVisible();
      await page.unroute(SEND);
      return;
    case 'messages.refresh':
      if (next?.type === 'xstate.error.actor.loadRecent') {
        await page.route(isRecentLoad, (route) => route.fulfill(errorEnvelope(500, REFRESH_DETAIL)));
      }
      if (next?.type === 'xstate.done.actor.loadRecent' && (next.output as { messages: unknown[] }).messages.length === 0) {
        // The server's answer with its messages taken out.
        await page.route(isRecentLoad, async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { data: { messages: unknown[] } };
          body.data.messages = [];
          await route.fulfill({ response, json: body });
        });
      }
      if (next?.type === 'xstate.done.actor.loadRecent' && (next.output as { messages: Array<{ status: string }> }).messages.some((m) => m.status === 'streaming')) {
        // The reply cut off is still being written: found so, and followed.
        await readsReplyWritten(page, isRecentLoad);
        const following = nextFollowing(ahead);
        if (followFails(following)) await failFollow(page);
        if (following.some((e) => e.type === 'reply.stop')) await holdFollow(page);
        await forgetReplyLengths(page);
      }
      await refreshButton(page).click();
      // A path may end here: the refresh then ends as it does on the real server.
      if (!next) await expect(page.getByText(MESSAGES_REFRESHED).last()).toBeVisible();
      return;
    case 'xstate.done.actor.loadRecent':
      if ((event.output as { messages: unknown[] }).messages.length === 0) {
        // Nothing came back to repair with: said as a failed refresh, and Refresh message stays.
        await expect(page.getByText(refreshFailedText(NO_MESSAGES_FOUND))).toBeVisible();
        await expect(refreshButton(page)).toBeVisible();
        await page.unroute(isRecentLoad);
        return;
      }
      await expect(page.getByText(MESSAGES_REFRESHED).last()).toBeVisible();
      await expect(refreshButton(page)).toHaveCount(0);
      return;
    case 'xstate.error.actor.loadRecent':
      await expect(page.getByText(refreshFailedText(REFRESH_DETAIL))).toBeVisible();
      await expect(refreshButton(page)).toBeVisible();
      await page.unroute(isRecentLoad);
      return;
    case 'conversation.open': {
      const target = event.conversationId as string | null;
      if (target === null) {
        await page.getByRole('button', { name: 'New Chat', exact: true }).click();
        await expect(page).toHaveURL(/\/chat$/);
        await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
        return;
      }
      const id = w.ids.get(target)!;
      if (next?.type === 'xstate.error.actor.loadMessages') {
        await page.route(isMessagesLoad(id), (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      }
      await (await revealConversationLink(page, id)).click();
      await expect(page).toHaveURL(new RegExp(`id=${id}$`));
      return;
    }
    case 'xstate.done.actor.loadMessages': {
      const id = openConversationId(page)!;
      if (id === w.ids.get(LONG)) {
        // Its latest page, at the end; the first message is not loaded.
        await expect(assistantMessages(page).last()).toBeInViewport();
        await expect(firstLongQuestion(page)).toHaveCount(0);
        return;
      }
      const asked = w.questions.get(id)!;
      await expect(userMessages(page).first()).toContainText(asked);
      // A reply still being written elsewhere is followed until it is complete (the follow step checks the end);
      // whether it still shows busy now depends on the machine's speed (the follow checks every second).
      if (!(event.output as { messages: Array<{ status: string }> }).messages.some((m) => m.status === 'streaming')) {
        await expect(assistantMessages(page).last()).not.toHaveAttribute('aria-busy', 'true');
      }
      return;
    }
    case 'xstate.error.actor.loadMessages': {
      if ((event.error as { notFound?: boolean }).notFound) {
        // The server's own 404: said once, with a new chat offered, and no toast.
        await expect(page.getByRole('heading', { name: CONVERSATION_NOT_FOUND })).toBeVisible();
        await expect(page.getByText(CONVERSATION_NOT_FOUND_TEXT)).toBeVisible();
        await expect(page.getByText(FETCH_MESSAGES_FAILED)).toHaveCount(0);
        return;
      }
      await expect(page.getByText(FETCH_MESSAGES_FAILED)).toBeVisible();
      await expect(userMessages(page)).toHaveCount(0);
      await page.unroute(isMessagesLoad(openConversationId(page)!));
      return;
    }
    case 'follow.text':
      // The followed reply grew on screen from its own stream (seen by the page's watch, however fast it was).
      await expect.poll(() => replyLengths(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      return;
    case 'poll.progress':
      // The saved reply is read: no longer being written.
      await expect(assistantMessages(page).last()).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
      await expect(assistantMessages(page).last()).not.toBeEmpty();
      return;
    case 'messages.loadEarlier':
      if (next?.type === 'xstate.error.actor.loadEarlier') await page.route(isEarlierLoad, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await scrollToTop(page);
      return;
    case 'xstate.done.actor.loadEarlier':
      // The page before is above the messages that were shown: up at the top is the first message.
      await expect(page.getByText('Loading earlier messages')).toHaveCount(0);
      // Rows drawn for the first time are measured and the list keeps what is on screen in place, which can
      // move the reader down from the very top, as a reader sees: they scroll up once more.
      await expect(async () => {
        await scrollToTop(page);
        await expect(firstLongQuestion(page)).toBeInViewport({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      return;
    case 'xstate.error.actor.loadEarlier':
      await expect(page.getByText(FETCH_MESSAGES_FAILED)).toBeVisible();
      await expect(firstLongQuestion(page)).toHaveCount(0);
      await page.unroute(isEarlierLoad);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** Brings the page where the path starts: a new chat (with a finished conversation to open) or a reload mid-reply. */
async function setUp(page: Page, w: World, input: { conversationId: string | null }, events: Step[]) {
  if (events.some((e) => e.type === 'conversation.open' && e.conversationId === OTHER)) {
    const asked = unique('Summarise the travel policy');
    const id = await seededConversation(page.request, asked);
    w.ids.set(OTHER, id);
    w.questions.set(id, asked);
  }
  if (events.some((e) => e.type === 'conversation.open' && e.conversationId === LONG)) {
    w.ids.set(LONG, await longConversation(page.request));
  }
  if (input.conversationId === GONE) {
    // A link to a conversation the server has never had.
    const id = randomUUID();
    w.ids.set(GONE, id);
    await page.goto(`/chat?id=${id}`);
    return;
  }
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
  if (input.conversationId !== MID_REPLY) return;
  const asked = unique('Reload during the answer');
  await ask(page, asked);
  await expect(page).toHaveURL(/\/chat\?id=/);
  const id = openConversationId(page)!;
  w.ids.set(MID_REPLY, id);
  w.questions.set(id, asked);
  // Reload once the answer has begun (and well before its end: the offline reply takes seconds).
  await expect(assistantMessages(page).last().getByText('Thinking')).toHaveCount(0);
  const following = nextFollowing(events);
  // The stream is held only from a step (the page's own fault switch); a path never asks it at the reload.
  if (following.some((e) => e.type === 'reply.stop')) throw new Error('no browser set-up for Stop while a reloaded reply is followed');
  if (events[0]?.type !== 'xstate.error.actor.loadMessages' && followFails(following)) await failFollow(page);
  if (events[0]?.type === 'xstate.error.actor.loadMessages') {
    await page.route(isMessagesLoad(id), (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
  } else {
    // The reload's load finds the reply being written, so the follow's real checks finish it.
    await readsReplyWritten(page, isMessagesLoad(id));
  }
  await page.reload();
}

test.describe('chat-send paths (generated from machines/chat-send.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('chat-send (e2e paths)', coverageOf(chatSendMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    const start = { [MID_REPLY]: 'reloaded mid-reply', [GONE]: 'a wrong link' }[path.input.conversationId ?? ''] ?? 'new chat';
    test(`${start}: ${path.description}`, async ({ page }) => {
      // Real replies, one after another on a shared machine: more than the default 30 s.
      test.setTimeout(120_000);
      await signInAndLand(page, accounts.user, /\/chat$/);
      const browses = path.events.some((e) => e.browsing === true);
      if (browses) await skipWithoutWebSearch(page);
      await page.addInitScript(watchReplies);
      await page.addInitScript(streamFaults);
      const w: World = { ids: new Map(), questions: new Map(), lastQuestion: '', stoppedWhileFollowing: false };
      await setUp(page, w, path.input, path.events);
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type, async () => {
          await perform(page, w, event, path.events.slice(i + 1));
          // A conversation made here is opened again by its id later on.
          const made = w.ids.get(event.conversationId as string);
          if (event.type === 'stream.control' && made && !w.questions.has(made)) w.questions.set(made, w.lastQuestion);
        });
      }
      // What the path made is deleted, so repeated runs on one organisation do not fill it.
      const headers = { Authorization: `Bearer ${await signedInToken(page)}` };
      for (const [model, id] of w.ids) {
        // A link to nothing, and the long conversation a deployment keeps (test/e2e/helpers/seed.ts).
        if (model === GONE || (model === LONG && !isLocalServer)) continue;
        const deleted = await withinRateLimits(() => page.request.delete(`/api/v1/chat/conversations/${id}`, { headers }));
        expect(deleted.ok()).toBe(true);
      }
    });
  }
});
