import { expect, test, type Page } from '@playwright/test';
import { TITLE_EMPTY, SEARCH_TOO_SHORT } from '../../../contract/chat-constants';
import {
  DELETE_FAILED,
  DELETED,
  FETCH_FAILED,
  LOAD_MORE_FAILED,
  RENAME_FAILED,
  RENAMED,
  SEARCH_FAILED,
  SEARCH_MORE_FAILED,
} from '../../../machines/conversation-list.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import {
  conversationListMachine,
  conversationListPaths,
  DEBOUNCE,
  pagerMachine,
  pagerPaths,
  SHORT,
  WORD,
} from './conversation-list.paths-model';
import { seededConversation } from '../helpers/seed';
import { conversationNav, errorEnvelope, revealConversationLink } from './paths-support';

/**
 * The conversation list's generated paths (machines/conversation-list.machine.ts: rename and delete) and its two
 * pagers' (machines/pager.machine.ts with the list's inputs: the conversations with Load more, and search with the
 * 3-character hint, its results and their Load more), driven through the chat sidebar; the models are in
 * conversation-list.paths-model.ts. The account gets a page and a bit of conversations sharing one unique word
 * (seeded once per worker, test/e2e/helpers/seed.ts), so both Load mores have something to load and the search finds exactly
 * those.
 *
 * Forced in the browser with `page.route` stubs answering a 500, so generated locally and against a deployment
 * alike (E2E_BASE_URL): a rename or a delete failing, and a pager's fetch failing (the first page,
 * the next page, the search).
 *
 * Not generated: the list's events that come from the chat rather than from the sidebar (a refresh after a reply,
 * a polled title, a pager's notice passed on), and the pager's filters, sort, page size and page buttons, which
 * the sidebar does not have (an admin table will).
 */
const CONVERSATIONS = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations');
const SEARCH = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations/search');
const page2Of = (matches: (url: URL) => boolean) => (url: URL) => matches(url) && url.searchParams.get('page') === '2';
const page1Of = (matches: (url: URL) => boolean) => (url: URL) => matches(url) && url.searchParams.get('page') === '1';
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
const loadMore = (page: Page) => conversationNav(page).getByRole('button', { name: 'Load more' });
const links = (page: Page) => conversationNav(page).getByRole('link');
const fail500 = (page: Page, matches: (url: URL) => boolean) => page.route(matches, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));

/** This worker's unique search word, on 11 conversations: one more than a page of the list and of the search. */
const word = `corpus${Math.random().toString(36).slice(2, 8)}`;

test.describe('conversation-list paths (generated from machines/conversation-list.machine.ts and pager.machine.ts)', () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    // One after another: each is one short write transaction on the server's database.
    for (let i = 0; i < 11; i++) await seededConversation(request, `Budget ${word} question ${i}`);
    await request.dispose();
  });

  test.afterAll(() => {
    console.log(formatCoverage('conversation-list (e2e paths)', coverageOf(conversationListMachine, conversationListPaths as never), conversationListPaths.length));
    console.log(formatCoverage('pager (e2e paths)', coverageOf(pagerMachine, pagerPaths as never), pagerPaths.length));
  });

  for (const path of conversationListPaths) {
    test(`rename and delete: ${path.description}`, async ({ page, request }) => {
      const question = `Rename me ${Math.random().toString(36).slice(2, 8)}`;
      const id = await seededConversation(request, question);
      await signInAndLand(page, accounts.user, /\/chat$/);
      const link = await revealConversationLink(page, id);
      const item = conversationNav(page).getByRole('listitem').filter({ has: page.locator(`a[href="/chat?id=${id}"]`) });
      let title = (await link.innerText()).trim();
      const dialog = page.getByRole('alertdialog', { name: 'Delete Conversation' });
      for (const [i, event] of path.events.entries()) {
        const next = path.events[i + 1];
        await test.step(event.type, async () => {
          switch (event.type) {
            case 'conversation.rename': {
              const typed = (event.title as string).trim() ? `Renamed ${question}` : '   ';
              // The failing answer waits until the optimistic title has been seen (a stub answers at once).
              let release = () => {};
              const seen = new Promise<void>((resolve) => (release = resolve));
              if (next?.type === 'xstate.error.actor.renameConversation') {
                await page.route(
                  (url) => url.pathname.endsWith('/rename'),
                  async (route) => {
                    await seen;
                    await route.fulfill(errorEnvelope(500, 'Internal Server Error'));
                  },
                );
              }
              await item.getByRole('button', { name: /^Rename / }).click();
              await page.getByRole('textbox', { name: 'Conversation title' }).fill(typed);
              await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
              if (typed.trim()) {
                // Shown at once, before the server answers.
                await expect(link).toHaveText(typed);
                release();
                title = typed;
              } else {
                await expect(page.getByText(TITLE_EMPTY)).toBeVisible();
                await expect(link).toHaveText(title);
              }
              return;
            }
            case 'xstate.done.actor.renameConversation':
              await expect(page.getByText(RENAMED)).toBeVisible();
              await expect(link).toHaveText(title);
              return;
            case 'xstate.error.actor.renameConversation':
              await expect(page.getByText(RENAME_FAILED)).toBeVisible();
              // Put back: the name it had before.
              await expect(link).not.toHaveText(title);
              title = (await link.innerText()).trim();
              await page.unroute((url) => url.pathname.endsWith('/rename'));
              return;
            case 'conversation.askDelete':
              await item.getByRole('button', { name: /^Delete / }).click();
              await expect(dialog).toContainText(`Delete "${title}"? This cannot be undone.`);
              return;
            case 'conversation.cancelDelete':
              await dialog.getByRole('button', { name: 'Cancel' }).click();
              await expect(dialog).toBeHidden();
              await expect(link).toBeVisible();
              return;
            case 'conversation.delete':
              if (next?.type === 'xstate.error.actor.deleteConversation') await fail500(page, (url) => url.pathname.endsWith(`/chat/conversations/${id}`));
              await dialog.getByRole('button', { name: 'Delete' }).click();
              return;
            case 'xstate.done.actor.deleteConversation':
              await expect(page.getByText(DELETED)).toBeVisible();
              await expect(dialog).toBeHidden();
              await expect(link).toHaveCount(0);
              return;
            case 'xstate.error.actor.deleteConversation':
              await expect(page.getByText(DELETE_FAILED)).toBeVisible();
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
    });
  }

  for (const path of pagerPaths) {
    const searching = path.input.search !== undefined;
    test(`${searching ? 'search' : 'conversations'}: ${path.description.replaceAll(DEBOUNCE, '1.5 s of quiet')}`, async ({ page }) => {
      await signInAndLand(page, accounts.user, /\/chat$/);
      const matches = searching ? SEARCH : CONVERSATIONS;
      // The conversations load with the page: a failure of that first load is stubbed before it.
      if (!searching && path.events[0]?.type === 'xstate.error.actor.fetchPage') await fail500(page, page1Of(CONVERSATIONS));
      const loaded = searching ? null : page.waitForResponse((r) => page1Of(CONVERSATIONS)(new URL(r.url())));
      await page.goto('/chat');
      await loaded;
      let more = false;
      for (const [i, event] of path.events.entries()) {
        const next = path.events[i + 1];
        await test.step(event.type === DEBOUNCE ? '1.5 s of quiet' : event.type, async () => {
          switch (event.type) {
            case 'pager.search': {
              const text = event.text === SHORT ? word.slice(0, 2) : event.text === WORD ? word : '';
              if (next?.type === DEBOUNCE && path.events[i + 3]?.type === 'xstate.error.actor.fetchPage') await fail500(page, SEARCH);
              await searchBox(page).fill(text);
              if (event.text === SHORT) await expect(page.getByText(SEARCH_TOO_SHORT)).toBeVisible();
              else await expect(page.getByText(SEARCH_TOO_SHORT)).toHaveCount(0);
              // Cleared: the conversations again.
              if (text === '') await expect(conversationNav(page).getByRole('region').first()).toBeVisible();
              return;
            }
            case DEBOUNCE:
              // The search runs once the typing has stopped; the results come in the next step.
              await expect(page.getByText(SEARCH_TOO_SHORT)).toHaveCount(0);
              return;
            case 'pager.loadMore':
              more = true;
              if (next?.type === 'xstate.error.actor.fetchPage') await fail500(page, page2Of(matches));
              await loadMore(page).click();
              // A path may end here: the next page then comes as the server sends it.
              if (!next) await expect.poll(() => links(page).count()).toBeGreaterThan(10);
              return;
            case 'xstate.done.actor.fetchPage':
              if (more) {
                // The next page below the first: the eleventh one on, and nothing more to load here.
                await expect.poll(() => links(page).count()).toBeGreaterThan(10);
                if (searching) await expect(links(page)).toHaveCount(11);
              } else {
                await expect(links(page)).toHaveCount(10);
                await expect(loadMore(page)).toBeVisible();
                if (searching) for (const link of await links(page).all()) await expect(link).toContainText(word);
              }
              return;
            case 'xstate.error.actor.fetchPage': {
              const sentence = more ? (searching ? SEARCH_MORE_FAILED : LOAD_MORE_FAILED) : searching ? SEARCH_FAILED : FETCH_FAILED;
              await expect(page.getByText(sentence)).toBeVisible();
              // What was shown stays.
              if (more) await expect(links(page)).toHaveCount(10);
              else await expect(conversationNav(page).getByText(searching ? 'No conversations found' : 'No conversations yet')).toBeVisible();
              await page.unroute(more ? page2Of(matches) : searching ? SEARCH : page1Of(CONVERSATIONS));
              return;
            }
            default:
              throw new Error(`no browser step for ${event.type}`);
          }
        });
      }
    });
  }
});
