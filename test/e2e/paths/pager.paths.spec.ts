import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { whileHolding } from '../helpers/exclusive';
import { DEFAULT_CONVERSATION_TITLE, SEARCH_DEBOUNCE_MS, SEARCH_TOO_SHORT } from '../../../contract/chat-constants';
import { DEPARTMENT_DELETED } from '../../../contract/departments-constants';
import { OAUTH_CREATED, OAUTH_FETCH_FAILED, OAUTH_KEY_MISSING, OAUTH_LIST_UNAVAILABLE } from '../../../contract/oauth-configs-constants';
import { REPORT_TYPE_LABELS } from '../../../contract/usage-reports-constants';
import { USERS_FETCH_FAILED } from '../../../contract/users-constants';
import {
  DELETED,
  FETCH_FAILED,
  LOAD_MORE_FAILED,
  RENAME_FAILED,
  RENAMED,
  SEARCH_FAILED,
  SEARCH_MORE_FAILED,
} from '../../../machines/conversation-list.machine';
import { DEPARTMENT_PAGE_SIZE } from '../../../machines/departments-admin.machine';
import { MAX_TITLE_POLL_ATTEMPTS, TITLE_POLL_INTERVAL_MS } from '../../../machines/title-poll.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, signInAndLand, signInByApi } from '../helpers/accounts';
import { registerClient, superuserHeaders } from '../helpers/clients-area';
import { seededConversation } from '../helpers/seed';
import { DEBOUNCE, pagerMachine, pagerPaths, screenOf, SHORT, WORD, type Screen } from './pager.paths-model';
import {
  apiToken,
  ask,
  conversationLink,
  conversationNav,
  createConversationByApi,
  errorEnvelope,
  expectReplyComplete,
  revealConversationLink,
  signedInToken,
  unique,
  type Step,
} from './paths-support';

/**
 * The pager's generated paths (machines/pager.machine.ts, the model in pager.paths-model.ts), each driven on the
 * screen whose input it starts from: the chat sidebar's conversations and its search results (the demo user), the
 * users table, the departments table and the Reports tab (the organisation's admin), a client's OAuth
 * Configurations (the superuser). The pager is counted once, over all of them.
 *
 * Data: the sidebar's account gets a page and a bit of conversations sharing one unique word (seeded once per
 * worker, test/e2e/helpers/seed.ts), so both Load mores have something to load and the search finds exactly those;
 * a path that renames or deletes has a conversation of its own. A departments path creates a page and a bit of
 * departments named with its own word and searches that word before it touches any. The users table and the
 * reports are only read and filtered. The OAuth paths use one client kept for them (registered the first time,
 * found by its name afterwards: clients cannot be deleted) and add at most one configuration to it. Everything
 * made is deleted through the API at the end (the client excepted).
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL). Forced in the browser with `page.route` stubs:
 * a read failing (a 500: the conversations, their next page, the search, the list read again after a new
 * conversation, the users), and the OAuth list refused with the 503 of a server without its secret key (when the
 * modal opens, and when the list is read again after a configuration was added). The title poll's 20 s move on
 * with Playwright's clock (a deployment's model may name the conversation a few checks later).
 *
 * Not generated, because no screen can cause them: a list that waits to be told to load (`autoLoad: false`: no
 * screen gives it), Load more in a list shown a page at a time (no such screen has Load more) and a quiet refusal
 * of a next page (only the attached documents' list refuses quietly with Load more, and it shows 100 a page).
 */
const CONVERSATIONS = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations');
const SEARCH = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations/search');
const RENAME = (url: URL) => url.pathname.endsWith('/rename');
const USERS = (url: URL) => url.pathname.endsWith('/api/v1/users/');
const DEPARTMENTS = (url: URL) => url.pathname.endsWith('/api/v1/departments/');
const CONFIGS = (url: URL) => /\/api\/v1\/clients\/[^/]+\/oauth-configs$/.test(url.pathname);
const pageOf = (matches: (url: URL) => boolean, n: number) => (url: URL) => matches(url) && url.searchParams.get('page') === String(n);

const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const fail500 = (page: Page, matches: (url: URL) => boolean) =>
  page.route(matches, (route) => (route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));

/** A toast says `text`; the person closes it, so a later step sees only its own. */
async function expectToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
  await expect(toast(page, text)).toHaveCount(0);
}

/** This worker's unique search word, on 11 conversations: one more than a page of the list and of the search. */
const word = `pagerword${Math.random().toString(36).slice(2, 8)}`;
/** Every conversation this worker made (seeded, or asked in a path), deleted at its end. */
const made: string[] = [];

/** One path's screen and what it has learnt so far. */
interface Run {
  page: Page;
  request: APIRequestContext;
  /** What the next `done` answers: the first page, a next page, a list read again, a search. */
  last: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The chat sidebar: the conversations and the search results.

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
const loadMore = (page: Page) => conversationNav(page).getByRole('button', { name: 'Load more' });
const links = (page: Page) => conversationNav(page).getByRole('link');

interface SidebarRun extends Run {
  /** The test's own conversation (c1) and the title it shows. */
  mine: { id: string; title: string; question: string } | null;
  /** The conversation asked in the path ('new'). */
  fresh: string | null;
  /** A rename's call held back until its answer's step. */
  release: () => void;
}

/** Waits for the title poll to name the conversation: 20 s a check, as many checks as the model takes. */
async function waitForTitle(page: Page, id: string) {
  const link = conversationLink(page, id);
  for (let check = 0; check < MAX_TITLE_POLL_ATTEMPTS; check++) {
    await page.clock.fastForward(TITLE_POLL_INTERVAL_MS);
    if (!(await link.innerText()).includes(DEFAULT_CONVERSATION_TITLE)) break;
    await page.waitForTimeout(500);
  }
  await expect(link).not.toHaveText(DEFAULT_CONVERSATION_TITLE);
}

async function sidebarStep(run: SidebarRun, searching: boolean, event: Step, next: Step | undefined, after: Step | undefined) {
  const { page } = run;
  const matches = searching ? SEARCH : CONVERSATIONS;
  switch (event.type) {
    case 'pager.search': {
      const text = event.text === SHORT ? word.slice(0, 2) : event.text === WORD ? word : event.text === `${WORD} ` ? `${word} ` : '';
      if (text === `${word} `) {
        // The same words again (a space after them): nothing is searched again, the results stay.
        let asked = 0;
        const count = (r: { url(): string }) => void (SEARCH(new URL(r.url())) && (asked += 1));
        page.on('request', count);
        const before = await links(page).count();
        await searchBox(page).fill(text);
        await page.waitForTimeout(SEARCH_DEBOUNCE_MS + 500);
        page.off('request', count);
        expect(asked).toBe(0);
        await expect(links(page)).toHaveCount(before);
        return;
      }
      if (next?.type === DEBOUNCE && after?.type === 'xstate.error.actor.fetchPage') await fail500(page, SEARCH);
      run.last = 'first';
      await searchBox(page).fill(text);
      if (event.text === SHORT) await expect(page.getByText(SEARCH_TOO_SHORT)).toBeVisible();
      else await expect(page.getByText(SEARCH_TOO_SHORT)).toHaveCount(0);
      // Cleared: the conversations again.
      if (text === '') await expect(links(page).first()).toBeVisible();
      return;
    }
    case DEBOUNCE:
      // The search runs once the typing has stopped; the results come in the next step.
      await expect(page.getByText(SEARCH_TOO_SHORT)).toHaveCount(0);
      return;
    case 'pager.loadMore':
      run.last = 'more';
      if (next?.type === 'xstate.error.actor.fetchPage') await fail500(page, pageOf(matches, 2));
      await loadMore(page).click();
      // A path may end here: the next page then comes as the server sends it.
      if (!next) await expect.poll(() => links(page).count()).toBeGreaterThan(10);
      return;
    case 'pager.refetch': {
      // A new conversation asked on the empty chat: the list is read again as soon as it is created.
      run.last = 'again';
      if (next?.type === 'xstate.error.actor.fetchPage') await fail500(page, pageOf(CONVERSATIONS, 1));
      await ask(page, `Plan the team offsite ${Math.random().toString(36).slice(2, 6)}`);
      await expect(page).toHaveURL(/\/chat\?id=/);
      run.fresh = new URL(page.url()).searchParams.get('id')!;
      made.push(run.fresh);
      return;
    }
    case 'xstate.done.actor.fetchPage':
      if (run.last === 'more') {
        // The next page below the first: the eleventh one on, and nothing more to load here.
        await expect.poll(() => links(page).count()).toBeGreaterThan(10);
        if (searching) await expect(links(page)).toHaveCount(11);
      } else if (run.last === 'again') {
        // Read again without a spinner: the new conversation on top, still unnamed, a page of them.
        await expect(links(page).first()).toHaveAttribute('href', `/chat?id=${run.fresh}`);
        await expect(conversationLink(page, run.fresh!)).toHaveText(DEFAULT_CONVERSATION_TITLE);
        await expect(links(page)).toHaveCount(10);
        await expectReplyComplete(page);
      } else {
        await expect(links(page)).toHaveCount(10);
        await expect(loadMore(page)).toBeVisible();
        if (searching) for (const link of await links(page).all()) await expect(link).toContainText(word);
      }
      return;
    case 'xstate.error.actor.fetchPage': {
      const sentence =
        run.last === 'more' ? (searching ? SEARCH_MORE_FAILED : LOAD_MORE_FAILED) : searching ? SEARCH_FAILED : FETCH_FAILED;
      await expect(page.getByText(sentence).first()).toBeVisible();
      // What was shown stays.
      if (run.last === 'more') await expect(links(page)).toHaveCount(10);
      else if (run.last === 'again') {
        await expect(conversationLink(page, run.fresh!)).toHaveCount(0);
        await expectReplyComplete(page);
      } else await expect(conversationNav(page).getByText(searching ? 'No conversations found' : 'No conversations yet')).toBeVisible();
      await page.unroute(run.last === 'more' ? pageOf(matches, 2) : searching ? SEARCH : pageOf(CONVERSATIONS, 1));
      return;
    }
    case 'item.upsert':
      // The title poll finds the new conversation's name: the list shows it where it is.
      await waitForTitle(page, run.fresh!);
      if (isLocalServer) await expect(conversationLink(page, run.fresh!)).toContainText('Plan the team offsite');
      return;
    case 'item.patch': {
      const mine = run.mine!;
      const link = await revealConversationLink(page, mine.id);
      const typed = `Renamed ${mine.question}`;
      const held = new Promise<void>((resolve) => (run.release = resolve));
      const fails = next?.type === 'item.revert';
      await page.route(RENAME, async (route: Route) => {
        await held;
        await (fails ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.continue());
      });
      const item = conversationNav(page).getByRole('listitem').filter({ has: page.locator(`a[href="/chat?id=${mine.id}"]`) });
      await item.getByRole('button', { name: /^Rename / }).click();
      await page.getByRole('textbox', { name: 'Conversation title' }).fill(typed);
      await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
      // Shown at once, before the server answers.
      await expect(link).toHaveText(typed);
      mine.title = typed;
      return;
    }
    case 'item.commit':
    case 'item.revert': {
      const mine = run.mine!;
      run.release();
      await expect(page.getByText(event.type === 'item.commit' ? RENAMED : RENAME_FAILED).first()).toBeVisible();
      if (event.type === 'item.revert') mine.title = mine.question;
      await expect(conversationLink(page, mine.id)).toHaveText(mine.title);
      await page.unroute(RENAME);
      return;
    }
    case 'item.remove': {
      const mine = run.mine!;
      const link = await revealConversationLink(page, mine.id);
      const item = conversationNav(page).getByRole('listitem').filter({ has: page.locator(`a[href="/chat?id=${mine.id}"]`) });
      await item.getByRole('button', { name: /^Delete / }).click();
      await page.getByRole('alertdialog', { name: 'Delete Conversation' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText(DELETED).first()).toBeVisible();
      await expect(link).toHaveCount(0);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

async function runSidebar(page: Page, request: APIRequestContext, searching: boolean, events: Step[]) {
  const run: SidebarRun = { page, request, last: 'first', mine: null, fresh: null, release: () => {} };
  if (events.some((e) => e.type.startsWith('item.patch') || e.type === 'item.remove')) {
    const question = `Rename me ${Math.random().toString(36).slice(2, 8)}`;
    const id = await seededConversation(request, question);
    made.push(id);
    run.mine = { id, title: question, question };
  }
  if (events.some((e) => e.type === 'item.upsert')) await page.clock.install();
  // The conversations load with the page: a failure of that first load is stubbed before it.
  if (!searching && events[0]?.type === 'xstate.error.actor.fetchPage') await fail500(page, pageOf(CONVERSATIONS, 1));
  const loaded = searching ? null : page.waitForResponse((r) => pageOf(CONVERSATIONS, 1)(new URL(r.url())));
  await signInAndLand(page, accounts.user, /\/chat$/);
  await loaded;
  try {
    for (const [i, event] of events.entries()) {
      await test.step(stepTitle(event), () => sidebarStep(run, searching, event, events[i + 1], events[i + 2]));
    }
  } finally {
    run.release();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The users table (/users), read as it is.

const usersRows = (page: Page) => page.getByRole('table', { name: 'Users' }).getByRole('rowheader');
const usersBanner = (page: Page) => page.getByRole('main').getByRole('alert').filter({ hasText: USERS_FETCH_FAILED });

async function usersStep(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (event.type) {
    case 'xstate.done.actor.fetchPage':
      await expect(usersBanner(page)).toHaveCount(0);
      await expect.poll(() => usersRows(page).count()).toBeGreaterThan(0);
      if (run.last === 'filtered') {
        // Only active people: every row's status switch is on.
        for (const sw of await page.getByRole('table', { name: 'Users' }).getByRole('switch').all()) await expect(sw).toBeChecked();
      }
      return;
    case 'pager.filter':
      run.last = 'filtered';
      if (next?.type === 'xstate.error.actor.fetchPage') await fail500(page, USERS);
      await page.getByRole('radiogroup', { name: 'Filter by status' }).getByRole('radio', { name: 'Active', exact: true }).click();
      await expect(page.getByRole('radiogroup', { name: 'Filter by status' }).getByRole('radio', { name: 'Active', exact: true })).toBeChecked();
      return;
    case 'xstate.error.actor.fetchPage': {
      // A toast, and a banner with Try again above the rows it showed.
      const shown = await usersRows(page).count();
      await expectToast(page, USERS_FETCH_FAILED);
      await expect(usersBanner(page)).toBeVisible();
      await expect(usersRows(page)).toHaveCount(shown);
      await page.unroute(USERS);
      return;
    }
    case 'pager.load':
      await page.getByRole('button', { name: 'Try again' }).click();
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

async function runUsers(page: Page, request: APIRequestContext, events: Step[]) {
  await signInByApi(page, accounts.admin);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
  const run: Run = { page, request, last: 'first' };
  for (const [i, event] of events.entries()) await test.step(stepTitle(event), () => usersStep(run, event, events[i + 1]));
}

// ---------------------------------------------------------------------------------------------------------------
// The departments table (/departments): a page and a bit of the test's own departments.

const departmentRows = (page: Page) => page.getByRole('rowheader');
const pageButton = (page: Page, n: number) => page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: `Page ${n}` });

interface DepartmentsRun extends Run {
  word: string;
  headers: Record<string, string>;
  /** The test's departments left, by name. */
  names: string[];
  query: string;
  listPage: number;
}

/** The departments of the first page without a search, as the server has them now. */
async function unsearchedFirstPage(run: DepartmentsRun) {
  const res = await run.request.get('/api/v1/departments/', { headers: run.headers, params: { page: 1, page_size: DEPARTMENT_PAGE_SIZE } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { departments: unknown[] } }).data.departments.length;
}

async function departmentsStep(run: DepartmentsRun, event: Step) {
  const { page } = run;
  switch (event.type) {
    case 'xstate.done.actor.fetchPage':
      if (run.query === '') {
        // All of the organisation's departments again, not only the test's.
        await expect.poll(async () => (await departmentRows(page).count()) === (await unsearchedFirstPage(run))).toBe(true);
      } else {
        const shown = run.names.slice((run.listPage - 1) * DEPARTMENT_PAGE_SIZE, run.listPage * DEPARTMENT_PAGE_SIZE);
        await expect(departmentRows(page)).toHaveText(shown);
        const pages = Math.ceil(run.names.length / DEPARTMENT_PAGE_SIZE);
        if (pages > 1) await expect(pageButton(page, 2)).toBeVisible();
        else await expect(pageButton(page, 2)).toHaveCount(0);
      }
      return;
    case 'pager.search': {
      run.query = event.text === WORD ? run.word : '';
      run.listPage = 1;
      await page.getByRole('searchbox', { name: 'Search departments' }).fill(run.query);
      return;
    }
    case DEBOUNCE:
      // Read once the typing has stopped.
      await page.waitForResponse((r) => DEPARTMENTS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === run.query);
      return;
    case 'pager.goTo':
      run.listPage = event.page as number;
      await pageButton(page, run.listPage).click();
      return;
    case 'pager.refetch': {
      // The one department of the last page deleted: that page, read again, is gone; the last one there is shows.
      const name = run.names.at(-1)!;
      await page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) }).getByRole('button', { name: `Delete department ${name}` }).click();
      await page.getByRole('alertdialog', { name: 'Delete Department' }).getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, DEPARTMENT_DELETED);
      run.names.pop();
      run.listPage = Math.ceil(run.names.length / DEPARTMENT_PAGE_SIZE);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

async function runDepartments(page: Page, request: APIRequestContext, events: Step[]) {
  await signInByApi(page, accounts.admin);
  const headers = { Authorization: `Bearer ${await signedInToken(page)}` };
  const own = unique('Pgdept').replace(' ', '');
  const run: DepartmentsRun = { page, request, last: 'first', word: own, headers, names: [], query: '', listPage: 1 };
  try {
    for (let i = 1; i <= DEPARTMENT_PAGE_SIZE + 1; i++) {
      const name = `${own} ${String(i).padStart(2, '0')}`;
      const res = await request.post('/api/v1/departments/', { headers, data: { name } });
      expect(res.status()).toBe(200);
      run.names.push(name);
    }
    await page.goto('/departments');
    await expect(page.getByRole('heading', { name: 'Department Management', level: 1 })).toBeVisible();
    for (const event of events) await test.step(stepTitle(event), () => departmentsStep(run, event));
  } finally {
    const res = await request.get('/api/v1/departments/', { headers, params: { search: own, paginate: 'false' } });
    expect(res.status()).toBe(200);
    for (const d of ((await res.json()) as { data: { departments: Array<{ id: string; name: string }> } }).data.departments) {
      if (!d.name.includes(own)) continue;
      const gone = await request.delete(`/api/v1/departments/${d.id}`, { headers });
      expect([200, 404]).toContain(gone.status());
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The Reports tab (/home): the results of the first filters, by department.

async function reportsStep(run: Run, event: Step) {
  const { page } = run;
  const header = (name: string) => page.getByRole('columnheader', { name, exact: true });
  const rowsPerPage = page.getByRole('button', { name: /Rows per page/ });
  switch (event.type) {
    case 'xstate.done.actor.fetchPage':
      await expect(page.getByRole('heading', { name: new RegExp(`^${REPORT_TYPE_LABELS.department}`) })).toBeVisible();
      await expect(page.getByRole('table').filter({ has: header('Unit') })).not.toHaveAttribute('aria-busy', 'true');
      await expect(rowsPerPage).toContainText(run.last === 'size' ? '20' : '10');
      return;
    case 'pager.pageSize':
      run.last = 'size';
      await rowsPerPage.click();
      await page.getByRole('option', { name: '20', exact: true }).click();
      await expect(rowsPerPage).toContainText('20');
      return;
    case 'pager.sort':
      await header('Unit').getByRole('button').click();
      await expect(header('Unit')).toHaveAttribute('aria-sort', 'ascending');
      return;
    case 'pager.filter':
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

async function runReports(page: Page, request: APIRequestContext, events: Step[]) {
  await signInAndLand(page, accounts.admin, /\/home$/);
  await page.getByRole('tab', { name: 'Reports' }).click();
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const run: Run = { page, request, last: 'first' };
  for (const event of events) await test.step(stepTitle(event), () => reportsStep(run, event));
}

// ---------------------------------------------------------------------------------------------------------------
// A client's OAuth Configurations (/clients, the superuser): one client kept for these paths.

const OAUTH_CLIENT = 'E2E pager paths client';

/** The client kept for these paths: found by its name, registered the first time (one worker at a time). */
async function oauthClient(request: APIRequestContext, headers: Record<string, string>): Promise<string> {
  return whileHolding('pager-oauth-client', async () => {
    const res = await request.get('/api/v1/clients/', { headers, params: { search: OAUTH_CLIENT } });
    expect(res.status()).toBe(200);
    const found = ((await res.json()) as { data: { clients: Array<{ id: string; client_name: string }> } }).data.clients.find((c) => c.client_name === OAUTH_CLIENT);
    return found?.id ?? (await registerClient(request, OAUTH_CLIENT)).id;
  });
}

/** Deletes the client's configurations (a path adds at most one; an earlier run's left over too). */
async function deleteConfigs(request: APIRequestContext, headers: Record<string, string>, clientId: string) {
  const res = await request.get(`/api/v1/clients/${clientId}/oauth-configs`, { headers });
  expect(res.status()).toBe(200);
  for (const c of ((await res.json()) as { data: Array<{ id: string }> }).data) {
    const gone = await request.delete(`/api/v1/clients/${clientId}/oauth-configs/${c.id}`, { headers });
    expect([200, 404]).toContain(gone.status());
  }
}

async function runOAuth(page: Page, request: APIRequestContext, events: Step[]) {
  const headers = await superuserHeaders(request);
  const clientId = await oauthClient(request, headers);
  await deleteConfigs(request, headers, clientId);
  // The list's reads refused as a server without OAUTH_SECRET_KEY refuses them, while `refuse` says so.
  let refuse = events[0]?.type === 'xstate.error.actor.fetchPage';
  await page.route(CONFIGS, (route) =>
    route.request().method() === 'GET' && refuse ? route.fulfill(errorEnvelope(503, OAUTH_KEY_MISSING)) : route.fallback(),
  );
  await signInByApi(page, accounts.superuser);
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Client Management', level: 1 })).toBeVisible();
  await page.getByPlaceholder('Search clients by name or email...').fill(OAUTH_CLIENT);
  const clientRow = page.getByRole('row').filter({ hasText: OAUTH_CLIENT });
  await expect(clientRow).toHaveCount(1);
  await clientRow.getByRole('button', { name: /OAuth Config/ }).click();
  const dialog = page.getByRole('dialog', { name: `OAuth Configurations - ${OAUTH_CLIENT}` });
  await expect(dialog).toBeVisible();
  try {
    for (const [i, event] of events.entries()) {
      const next = events[i + 1];
      await test.step(stepTitle(event), async () => {
        switch (event.type) {
          case 'xstate.done.actor.fetchPage':
            await expect(dialog.getByText('No OAuth configurations yet')).toBeVisible();
            await expect(dialog.getByRole('button', { name: 'Add Configuration' })).toBeEnabled();
            return;
          case 'xstate.error.actor.fetchPage':
            // Quiet: no toast, the modal says it in its own words and nothing can be added.
            await expect(dialog.getByText(OAUTH_LIST_UNAVAILABLE)).toBeVisible();
            await expect(dialog.getByRole('button', { name: 'Add Configuration' })).toBeDisabled();
            await expect(toast(page, OAUTH_FETCH_FAILED)).toHaveCount(0);
            return;
          case 'pager.refetch': {
            // A configuration added: the list is read again.
            await dialog.getByRole('button', { name: 'Add Configuration' }).click();
            await dialog.getByRole('button', { name: /Provider$/ }).click();
            await page.getByRole('option', { name: 'Google' }).click();
            await dialog.getByLabel('Client ID').fill(unique('pager-app').replace(' ', '-'));
            await dialog.getByLabel('Client Secret').fill('pager-secret-abcd');
            const created = page.waitForResponse((r) => r.request().method() === 'POST' && CONFIGS(new URL(r.url())));
            // Set before the click: the page reads the list again as soon as the POST answers, which on a busy
            // machine is before this runner hears of that answer.
            refuse = next?.type === 'xstate.error.actor.fetchPage';
            await dialog.getByRole('button', { name: 'Create Configuration' }).click();
            const answer = await created;
            test.skip(
              !isLocalServer && answer.status() === 503,
              'this deployment has no OAUTH_SECRET_KEY: it adds no OAuth configuration, so the path that adds one is skipped',
            );
            expect(answer.ok()).toBe(true);
            await expectToast(page, OAUTH_CREATED);
            return;
          }
          default:
            throw new Error(`no browser step for ${event.type}`);
        }
      });
    }
  } finally {
    await deleteConfigs(request, headers, clientId);
  }
}

// ---------------------------------------------------------------------------------------------------------------

const stepTitle = (e: Step) => (e.type === DEBOUNCE ? 'the quiet after typing' : e.type.replace(/^xstate\./, ''));

test.describe('pager paths (generated from machines/pager.machine.ts, on every screen that gives it an input)', () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!pagerPaths.some((p) => ['conversations', 'search'].includes(screenOf(p.input)))) return;
    const request = await playwright.request.newContext({ baseURL });
    const questions = Array.from({ length: 11 }, (_, i) => `Budget ${word} question ${i}`);
    // One after another locally (each a short write transaction on the server's database), at once on a deployment
    // (each a real reply), asked with one sign-in (a deployment limits sign-ins a minute).
    if (isLocalServer) for (const q of questions) made.push(await seededConversation(request, q));
    else {
      const token = await apiToken(request);
      made.push(...(await Promise.all(questions.map((q) => createConversationByApi(request, token, q)))));
    }
    await request.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    const headers = { Authorization: `Bearer ${await apiToken(request)}` };
    for (const id of made.splice(0)) {
      const res = await request.delete(`/api/v1/chat/conversations/${id}`, { headers });
      // Deleted already by its path.
      expect([200, 404]).toContain(res.status());
    }
    await request.dispose();
    console.log(formatCoverage('pager (e2e paths, every screen)', coverageOf(pagerMachine, pagerPaths as never), pagerPaths.length));
  });

  const run: Record<Screen, (page: Page, request: APIRequestContext, events: Step[]) => Promise<void>> = {
    conversations: (page, request, events) => runSidebar(page, request, false, events),
    search: (page, request, events) => runSidebar(page, request, true, events),
    users: runUsers,
    departments: runDepartments,
    reports: runReports,
    oauth: runOAuth,
  };

  for (const p of pagerPaths) {
    const screen = screenOf(p.input);
    test(`${screen}: ${p.events.map(stepTitle).join(' → ')}`, async ({ page, request }) => {
      test.slow();
      await run[screen](page, request, p.events);
    });
  }
});
