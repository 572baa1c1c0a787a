import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import type { SharedConversation } from '../../../contract/shares';
import {
  LINK_UNAVAILABLE,
  LINK_UNAVAILABLE_HINT,
  LOAD_SHARED_ERROR,
  LOAD_SHARED_FAILED,
  NO_SHARED_MESSAGES,
  SHARED_TITLE_FALLBACK,
} from '../../../machines/shared-conversation.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { withinRateLimits } from '../helpers/rate-limits';
import { seededConversation } from '../helpers/seed';
import { apiTokenOf, errorEnvelope, unique, type Step } from './paths-support';
import { EMPTY, NO_ANSWER, REFUSED, SERVER_FAULT, sharedConversationMachine, sharedConversationPaths as paths } from './shared-conversation.paths-model';

/**
 * The shared view's generated paths (machines/shared-conversation.machine.ts, the model in
 * shared-conversation.paths-model.ts), driven through the real /share/{id} page. The e2e user's conversation (seeded,
 * renamed to a unique title) is shared through the API twice: the first link stopped again (a revoked link, what the
 * 'no longer available' path opens), the second live; both, and the conversation, are removed in afterAll. A colleague
 * (the e2e admin, same organisation) opens the link. Each load is held until its spinner has been seen.
 *
 * Forced in the browser with a stub on GET /shares/{id}, locally and against a deployment alike: the server failing
 * (a 500), no answer (a dropped connection), and an answer without messages. No person can make that last one (a
 * conversation starts with its person's message, complete at once, and a share copies its complete messages), so
 * the stub empties the real answer's messages. Not in the model: `retry` from `unavailable` (no Try again is shown).
 */
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const spinner = (page: Page) => page.getByRole('status').filter({ hasText: 'Loading shared conversation' });
const tryAgain = (page: Page) => page.getByRole('button', { name: 'Try again' });
const questions = (page: Page) => page.getByRole('article', { name: 'Shared question' });
const replies = (page: Page) => page.getByRole('article', { name: 'Shared reply' });
const READ_ONLY = 'This is a shared conversation. You are viewing it in read-only mode.';

/** What this run made: one conversation, its stopped link and its live one. */
interface Shared {
  token: string;
  conversationId: string;
  title: string;
  question: string;
  live: string;
  revoked: string;
}
let shared: Shared | null = null;

async function shareLink(request: APIRequestContext, token: string, conversationId: string) {
  const res = await withinRateLimits(() => request.post(`/api/v1/shares/conversations/${conversationId}`, { headers: auth(token) }));
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { share_id: string } }).data.share_id;
}

/** How the held load is answered: as the server does, or forced by the stub. */
type Answer = 'real' | 'empty' | 'fault' | 'drop';

function answerFor(event: Step | undefined): Answer {
  if (event?.type === 'xstate.done.actor.load') return (event.output as SharedConversation).messages.length === EMPTY.messages.length ? 'empty' : 'real';
  if (event?.type !== 'xstate.error.actor.load') return 'real';
  const { status } = event.error as { status: number };
  return status === SERVER_FAULT.status ? 'fault' : status === NO_ANSWER.status ? 'drop' : 'real';
}

/** The load that opening (or Try again) makes: held until `release`, then answered for `next`. */
let release: () => void = () => {};

async function hold(page: Page, shareId: string, next: Step | undefined) {
  const answer = answerFor(next);
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === `/api/v1/shares/${shareId}`,
    async (route: Route) => {
      await gate;
      if (answer === 'fault') return route.fulfill(errorEnvelope(500, 'Internal Server Error'));
      if (answer === 'drop') return route.abort('connectionreset');
      if (answer === 'real') return route.fallback();
      const response = await route.fetch();
      const body = (await response.json()) as { data: SharedConversation };
      body.data.messages = [];
      return route.fulfill({ response, json: body });
    },
    { times: 1 },
  );
}

/** While loading: the spinner, the fallback title, nothing else of the conversation. */
async function expectLoading(page: Page) {
  await expect(spinner(page)).toBeVisible();
  await expect(heading(page)).toHaveText(SHARED_TITLE_FALLBACK);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('article')).toHaveCount(0);
}

async function expectShown(page: Page, s: Shared) {
  await expect(heading(page)).toHaveText(s.title);
  await expect(questions(page)).toHaveText(s.question);
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page)).not.toBeEmpty();
  await expect(spinner(page)).toHaveCount(0);
  // Read-only: said so, and nothing to type in.
  await expect(page.getByText(READ_ONLY)).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
}

async function perform(page: Page, s: Shared, shareId: string, event: Step, next: Step | undefined) {
  switch (event.type) {
    case 'xstate.done.actor.load':
      release();
      if (answerFor(event) === 'empty') {
        await expect(page.getByText(NO_SHARED_MESSAGES)).toBeVisible();
        // The title is the real answer's; there is nothing to read.
        await expect(heading(page)).toHaveText(s.title);
        await expect(page.getByRole('article')).toHaveCount(0);
        await expect(spinner(page)).toHaveCount(0);
        await expect(tryAgain(page)).toHaveCount(0);
      } else {
        await expectShown(page, s);
      }
      return;
    case 'xstate.error.actor.load': {
      release();
      const alert = page.getByRole('alert');
      await expect(spinner(page)).toHaveCount(0);
      await expect(heading(page)).toHaveText(SHARED_TITLE_FALLBACK);
      await expect(page.getByRole('article')).toHaveCount(0);
      const { status } = event.error as { status: number };
      if (status === REFUSED.status) {
        // Said once, with the way home and no Try again: the same link gets the same answer.
        await expect(alert.getByText(LINK_UNAVAILABLE)).toHaveCount(1);
        await expect(alert.getByText(LINK_UNAVAILABLE_HINT)).toBeVisible();
        await expect(alert.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home');
        await expect(tryAgain(page)).toHaveCount(0);
        await expect(page.getByText(LOAD_SHARED_FAILED)).toHaveCount(0);
        return;
      }
      await expect(alert.getByText(status === NO_ANSWER.status ? LOAD_SHARED_ERROR : LOAD_SHARED_FAILED, { exact: true })).toBeVisible();
      // The server's own sentence when it answered.
      await expect(alert.getByText('Internal Server Error')).toHaveCount(status === SERVER_FAULT.status ? 1 : 0);
      await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
      await expect(page.getByText(LINK_UNAVAILABLE)).toHaveCount(0);
      return;
    }
    case 'retry':
      await hold(page, shareId, next);
      await tryAgain(page).click();
      await expectLoading(page);
      // A path may end here: the server then answers the link as it does on the first try.
      if (!next) {
        release();
        await expectShown(page, s);
      }
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

function stepName(e: Step): string {
  switch (answerFor(e)) {
    case 'empty':
      return 'load: no messages';
    case 'fault':
      return 'load: server fault';
    case 'drop':
      return 'load: no answer';
    default:
      if (e.type === 'xstate.done.actor.load') return 'load: shown';
      if (e.type === 'xstate.error.actor.load') return 'load: link refused';
      return e.type;
  }
}

test.describe('shared-conversation paths (generated from machines/shared-conversation.machine.ts)', () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    const token = await apiTokenOf(request, accounts.user);
    const title = unique('Shared path notes');
    const question = `${title}: what should a visitor see?`;
    const conversationId = await seededConversation(request, question);
    const renamed = await withinRateLimits(() => request.patch(`/api/v1/chat/conversations/${conversationId}/rename`, { headers: auth(token), params: { title } }));
    expect(renamed.ok()).toBe(true);
    // The first link is stopped again (what its owner does), so it opens nothing; sharing again makes a new one.
    const revoked = await shareLink(request, token, conversationId);
    expect((await withinRateLimits(() => request.delete(`/api/v1/shares/${revoked}`, { headers: auth(token) }))).ok()).toBe(true);
    const live = await shareLink(request, token, conversationId);
    expect(live).not.toBe(revoked);
    shared = { token, conversationId, title, question, live, revoked };
  });

  test.afterAll(async ({ request }) => {
    console.log(formatCoverage('shared-conversation (e2e paths)', coverageOf(sharedConversationMachine, paths as never), paths.length));
    if (!shared) return;
    const { token, live, conversationId } = shared;
    expect((await withinRateLimits(() => request.delete(`/api/v1/shares/${live}`, { headers: auth(token) }))).ok()).toBe(true);
    expect((await withinRateLimits(() => request.delete(`/api/v1/chat/conversations/${conversationId}`, { headers: auth(token) }))).ok()).toBe(true);
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      test.slow();
      const s = shared!;
      // A path that meets the server refusing the link opens the stopped one; every other the live one.
      const refused = path.events.some((e) => e.type === 'xstate.error.actor.load' && (e.error as { status: number }).status === REFUSED.status);
      const shareId = refused ? s.revoked : s.live;
      await signInByApi(page, accounts.admin);
      await hold(page, shareId, path.events[0]);
      await page.goto(`/share/${shareId}`);
      await expectLoading(page);
      for (const [i, event] of path.events.entries()) {
        await test.step(stepName(event), () => perform(page, s, shareId, event, path.events[i + 1]));
      }
    });
  }
});
