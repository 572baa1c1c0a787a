import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { DEFAULT_CONVERSATION_TITLE, TITLE_EMPTY, SEARCH_TOO_SHORT } from '../../../contract/chat-constants';
import { DELETE_FAILED, DELETED, RENAME_FAILED, RENAMED, SEARCH_FAILED } from '../../../machines/conversation-list.machine';
import { MAX_TITLE_POLL_ATTEMPTS, TITLE_POLL_INTERVAL_MS } from '../../../machines/title-poll.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, signInAndLand } from '../helpers/accounts';
import { seededConversation } from '../helpers/seed';
import { conversationListMachine, conversationListPaths } from './conversation-list.paths-model';
import { apiToken, ask, conversationLink, createConversationByApi, conversationNav, errorEnvelope, expectReplyComplete, revealConversationLink, type Step } from './paths-support';

/**
 * The conversation list's generated paths (machines/conversation-list.machine.ts, the model in
 * conversation-list.paths-model.ts), driven through the chat sidebar as the demo user: rename and delete of a
 * conversation of the test's own, and one path of what the list learns from the rest of the chat (a new
 * conversation asked on the empty chat, which reads the list again, and its title found by the title poll; Load
 * more; a search failing, then found, then Load more below its results). What the two pagers do with these is the
 * pager's paths' (pager.paths.spec.ts). The account gets a page and a bit of conversations sharing one unique word
 * (seeded once per worker, test/e2e/helpers/seed.ts), so both Load mores have something to load and the search
 * finds exactly those; they, the tests' own and the new conversation are deleted through the API afterwards.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL). Forced in the browser: a rename, a delete or a
 * search failing (`page.route` stubs answering a 500), a rename's call held back until the person has opened the
 * Delete dialog (and cancelled it), and the title poll's 20 s (Playwright's clock; a deployment's model may name
 * the conversation a few checks later, so the clock moves on until it has).
 */
const SEARCH = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations/search');
const RENAME = (url: URL) => url.pathname.endsWith('/rename');
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
const loadMore = (page: Page) => conversationNav(page).getByRole('button', { name: 'Load more' });
const links = (page: Page) => conversationNav(page).getByRole('link');
const toast = (page: Page, text: string) => page.getByText(text).first();

/** This worker's unique search word, on 11 conversations: one more than a page of the list and of the search. */
const word = `corpus${Math.random().toString(36).slice(2, 8)}`;
/** Every conversation this worker made (seeded, or asked in a path), deleted at its end. */
const made: string[] = [];

/**
 * The worker's conversations: one after another locally (each a short write transaction on the server's database),
 * at once on a deployment (each a real reply), asked with one sign-in (a deployment limits sign-ins a minute).
 */
async function seedMany(request: APIRequestContext, questions: string[]) {
  if (isLocalServer) for (const q of questions) made.push(await seededConversation(request, q));
  else {
    const token = await apiToken(request);
    made.push(...(await Promise.all(questions.map((q) => createConversationByApi(request, token, q)))));
  }
}

async function deleteMade(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  for (const id of made.splice(0)) {
    const res = await request.delete(`/api/v1/chat/conversations/${id}`, { headers });
    // Deleted already by its path.
    expect([200, 404]).toContain(res.status());
  }
}

/** Waits for the title poll to name the conversation: 20 s a check, as many checks as the model takes. */
async function waitForTitle(page: Page, link: ReturnType<typeof conversationLink>) {
  for (let check = 0; check < MAX_TITLE_POLL_ATTEMPTS; check++) {
    await page.clock.fastForward(TITLE_POLL_INTERVAL_MS);
    if (!(await link.innerText()).includes(DEFAULT_CONVERSATION_TITLE)) break;
    await page.waitForTimeout(500);
  }
  await expect(link).not.toHaveText(DEFAULT_CONVERSATION_TITLE);
}

test.describe('conversation-list paths (generated from machines/conversation-list.machine.ts)', () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    await seedMany(request, Array.from({ length: 11 }, (_, i) => `Budget ${word} question ${i}`));
    await request.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    await deleteMade(request);
    await request.dispose();
    console.log(formatCoverage('conversation-list (e2e paths)', coverageOf(conversationListMachine, conversationListPaths as never), conversationListPaths.length));
  });

  for (const path of conversationListPaths) {
    if (path.events[0]?.type === 'list.refresh') {
      test(`from the chat: ${path.description}`, async ({ page }) => {
        test.slow();
        await page.clock.install();
        await signInAndLand(page, accounts.user, /\/chat$/);
        await expect(links(page)).toHaveCount(10);
        let fresh = '';
        for (const event of path.events) {
          await test.step(event.type, () => chatStep(page, event, (id) => (fresh = id), () => fresh));
        }
      });
      continue;
    }
    test(`rename and delete: ${path.description}`, async ({ page, request }) => {
      const question = `Rename me ${Math.random().toString(36).slice(2, 8)}`;
      const id = await seededConversation(request, question);
      made.push(id);
      await signInAndLand(page, accounts.user, /\/chat$/);
      const link = await revealConversationLink(page, id);
      const item = conversationNav(page).getByRole('listitem').filter({ has: page.locator(`a[href="/chat?id=${id}"]`) });
      let title = (await link.innerText()).trim();
      const dialog = page.getByRole('alertdialog', { name: 'Delete Conversation' });
      // A rename's call held back until its answer's step (or the path's end), answered by the server or failing.
      let release = () => {};
      try {
        for (const [i, event] of path.events.entries()) {
          const next = path.events[i + 1];
          await test.step(event.type, async () => {
            switch (event.type) {
              case 'conversation.rename': {
                const typed = (event.title as string).trim() ? `Renamed ${question}` : '   ';
                if (typed.trim()) {
                  const outcome = path.events.slice(i + 1).find((e) => e.type.endsWith('.renameConversation'))?.type;
                  const held = new Promise<void>((resolve) => (release = resolve));
                  await page.route(RENAME, async (route: Route) => {
                    await held;
                    await (outcome?.startsWith('xstate.error') ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.continue());
                  });
                }
                await item.getByRole('button', { name: /^Rename / }).click();
                await page.getByRole('textbox', { name: 'Conversation title' }).fill(typed);
                await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
                if (typed.trim()) {
                  // Shown at once, before the server answers.
                  await expect(link).toHaveText(typed);
                  title = typed;
                  // Answered at once unless the person does something else meanwhile.
                  if (!next || next.type.endsWith('.renameConversation')) release();
                } else {
                  await expect(page.getByText(TITLE_EMPTY)).toBeVisible();
                  await expect(link).toHaveText(title);
                }
                return;
              }
              case 'xstate.done.actor.renameConversation':
                release();
                await expect(toast(page, RENAMED)).toBeVisible();
                await expect(link).toHaveText(title);
                await page.unroute(RENAME);
                return;
              case 'xstate.error.actor.renameConversation':
                release();
                await expect(toast(page, RENAME_FAILED)).toBeVisible();
                // Put back: the name it had before.
                await expect(link).not.toHaveText(title);
                title = (await link.innerText()).trim();
                await page.unroute(RENAME);
                return;
              case 'conversation.askDelete':
                await item.getByRole('button', { name: /^Delete / }).click();
                await expect(dialog).toContainText(`Delete "${title}"? This cannot be undone.`);
                return;
              case 'conversation.cancelDelete':
                await dialog.getByRole('button', { name: 'Cancel' }).click();
                await expect(dialog).toBeHidden();
                await expect(link).toHaveText(title);
                return;
              case 'conversation.delete':
                if (next?.type === 'xstate.error.actor.deleteConversation') {
                  await page.route(
                    (url) => url.pathname.endsWith(`/chat/conversations/${id}`),
                    (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')),
                  );
                }
                await dialog.getByRole('button', { name: 'Delete' }).click();
                // A path may end here: the conversation then goes as the server deletes it.
                if (!next) await expect(link).toHaveCount(0);
                return;
              case 'xstate.done.actor.deleteConversation':
                await expect(toast(page, DELETED)).toBeVisible();
                await expect(dialog).toBeHidden();
                await expect(link).toHaveCount(0);
                return;
              case 'xstate.error.actor.deleteConversation':
                await expect(toast(page, DELETE_FAILED)).toBeVisible();
                // The dialog stays for another try.
                await expect(dialog.getByRole('button', { name: 'Delete' })).toBeEnabled();
                await expect(link).toBeVisible();
                await page.unroute((url) => url.pathname.endsWith(`/chat/conversations/${id}`));
                return;
              default:
                throw new Error(`no browser step for ${event.type}`);
            }
          });
        }
      } finally {
        release();
      }
    });
  }
});

/** One of the chat's events, as the person causes it on the chat screen (the list shows the first page of theirs). */
async function chatStep(page: Page, event: Step, setFresh: (id: string) => void, fresh: () => string) {
  switch (event.type) {
    case 'list.refresh': {
      // A new conversation asked on the empty chat: listed on top as soon as it is created, before its name.
      const question = `Plan the team offsite ${Math.random().toString(36).slice(2, 6)}`;
      await ask(page, question);
      await expect(page).toHaveURL(/\/chat\?id=/);
      const id = new URL(page.url()).searchParams.get('id')!;
      made.push(id);
      setFresh(id);
      await expect(links(page).first()).toHaveAttribute('href', `/chat?id=${id}`);
      await expect(conversationLink(page, id)).toHaveText(DEFAULT_CONVERSATION_TITLE);
      await expectReplyComplete(page);
      return;
    }
    case 'conversation.patch': {
      const link = conversationLink(page, fresh());
      await waitForTitle(page, link);
      // The offline responder names it with the question's first words.
      if (isLocalServer) await expect(link).toContainText('Plan the team offsite');
      return;
    }
    case 'list.loadMore':
      await loadMore(page).click();
      await expect.poll(() => links(page).count()).toBeGreaterThan(10);
      return;
    case 'notice.show':
      // The person starts typing the word and that search fails: the search pager's toast, passed on to the screen.
      await page.route(SEARCH, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await searchBox(page).fill(word.slice(0, 5));
      await expect(toast(page, SEARCH_FAILED)).toBeVisible();
      await expect(conversationNav(page).getByText('No conversations found')).toBeVisible();
      await page.unroute(SEARCH);
      return;
    case 'search.change':
      // The whole word: a page of the worker's conversations.
      await searchBox(page).fill(word);
      await expect(page.getByText(SEARCH_TOO_SHORT)).toHaveCount(0);
      await expect(links(page)).toHaveCount(10);
      for (const link of await links(page).all()) await expect(link).toContainText(word);
      return;
    case 'search.loadMore':
      await loadMore(page).click();
      await expect(links(page)).toHaveCount(11);
      await expect(loadMore(page)).toHaveCount(0);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}
