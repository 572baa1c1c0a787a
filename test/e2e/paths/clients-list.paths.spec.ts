import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { whileHolding } from '../helpers/exclusive';
import {
  CLIENT_EMAIL_REQUIRED,
  CLIENT_PAGE_SIZE,
  CLIENT_NAME_REQUIRED,
  CLIENT_ORIGIN_REQUIRED,
  CLIENT_REGISTER_FAILED,
  CLIENT_REGISTERED,
  CLIENT_STATUS_UPDATE_FAILED,
  CLIENT_STATUS_UPDATED,
  CLIENT_UPDATE_FAILED,
  CLIENT_UPDATED,
  CLIENTS_FETCH_FAILED,
} from '../../../contract/clients-constants';
import { PACKAGE_REQUIRED } from '../../../contract/subscriptions-constants';
import type { ClientDraft } from '../../../machines/clients-list.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { registerClient, superuserHeaders, toast } from '../helpers/clients-area';
import { errorEnvelope, unique, type Step } from './paths-support';
import { clientsListMachine, clientsListPaths as paths, shownStatus, stepName } from './clients-list.paths-model';

/**
 * The Clients page's generated paths (the record editor with machines/clients-list.machine.ts' input, the model in
 * clients-list.paths-model.ts), driven through the real Client Management page (/clients) as the superuser.
 *
 * Clients are shared (Demo Organisation among them): each test registers its own client through the API, named with
 * its own unique word, and searches that word before it touches any, so the list then shows only its own rows; a
 * registration registers another named with the word. Demo Organisation is never switched nor edited. Clients cannot
 * be deleted: at the end every client named with the test's word is made inactive. The path to page 2 uses the more
 * than a page of clients kept for it (`E2E clients paths paged NN`, found by that word, registered the first time)
 * and only reads them.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the list's read failing (a 500 on GET /clients/) and
 * the connection of a save or a status switch dropped.
 */
const CLIENTS = (url: URL) => url.pathname.endsWith('/api/v1/clients/');
const REGISTER = (url: URL) => url.pathname.endsWith('/api/v1/clients/register');
const ONE_CLIENT = (url: URL) => /\/api\/v1\/clients\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/register');
const STATUS = (url: URL) => /\/api\/v1\/clients\/[^/]+\/status$/.test(url.pathname);

const heading = (page: Page) => page.getByRole('heading', { name: 'Client Management', level: 1 });
const searchBox = (page: Page) => page.getByPlaceholder('Search clients by name or email...');
const rowHeaders = (page: Page) => page.getByRole('table', { name: 'Clients' }).getByRole('rowheader');
const rowOf = (page: Page, name: string) => page.getByRole('table', { name: 'Clients' }).getByRole('row').filter({ hasText: name });
const chip = (page: Page, name: string) => page.getByRole('radio', { name, exact: true });
const formDialog = (page: Page, kind: 'register' | 'edit') => page.getByRole('dialog', { name: kind === 'register' ? 'Register New Client' : 'Edit Client' });

type Filter = 'all' | 'inactive';

type ClientRow = { id: string; client_name: string; status: 'active' | 'inactive' };

/** The clients named with `word`, through the API as the superuser. */
async function clientsNamed(request: APIRequestContext, headers: Record<string, string>, word: string): Promise<ClientRow[]> {
  const res = await request.get('/api/v1/clients/', { headers, params: { search: word, page_size: 100 } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { clients: ClientRow[] } }).data.clients.filter((c) => c.client_name.startsWith(`${word} `));
}

/** The clients kept for the path to page 2: more than a page, found by their word, registered the first time (one worker at a time). */
const PAGED_WORD = 'E2EClientsPathsPaged';
async function pagedClients(request: APIRequestContext): Promise<ClientRow[]> {
  return whileHolding('clients-paths-paged', async () => {
    const headers = await superuserHeaders(request);
    const names = Array.from({ length: CLIENT_PAGE_SIZE + 1 }, (_, i) => `${PAGED_WORD} Person ${String(i + 1).padStart(2, '0')}`);
    const found = await clientsNamed(request, headers, PAGED_WORD);
    for (const name of names.filter((n) => !found.some((c) => c.client_name === n))) {
      found.push({ id: (await registerClient(request, name)).id, client_name: name, status: 'active' });
    }
    return found.filter((c) => names.includes(c.client_name));
  });
}

/** Every client the test named with its word made inactive: clients cannot be deleted, an inactive one is no one's. */
async function deactivateOwn(request: APIRequestContext, word: string) {
  const headers = await superuserHeaders(request);
  for (const c of (await clientsNamed(request, headers, word)).filter((c) => c.status === 'active')) {
    const res = await request.patch(`/api/v1/clients/${c.id}/status`, { headers, params: { status: 'inactive' } });
    expect(res.ok()).toBe(true);
  }
}

interface Mine {
  id: string;
  name: string;
  status: 'active' | 'inactive';
  phone: string | null;
}

interface Run {
  page: Page;
  word: string;
  /** The test's clients: c1 first, then any it registered in the page. */
  mine: Mine[];
  filter: Filter;
  listPage: number;
  draft: { kind: 'register' | 'edit'; filled: boolean; packageType: string | null; phone: string | null } | null;
}

/** A toast says `text`; closed when no dialog holds the page, so a later step sees only its own. */
async function expectToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  if ((await page.getByRole('dialog').count()) === 0) {
    await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
    await expect(toast(page, text)).toHaveCount(0);
  }
}

/** The list as the superuser sees it: the test's clients that pass the filter, each with its status switch. */
async function expectList(run: Run) {
  const { page } = run;
  // By name, CLIENT_PAGE_SIZE a page.
  const shown = run.mine
    .filter((c) => run.filter === 'all' || c.status === run.filter)
    .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
    .slice((run.listPage - 1) * CLIENT_PAGE_SIZE, run.listPage * CLIENT_PAGE_SIZE);
  await expect(rowHeaders(page)).toHaveCount(shown.length);
  for (const c of shown) {
    const sw = rowOf(page, c.name).getByRole('switch', { name: `Status of ${c.name}` });
    if (c.status === 'active') await expect(sw).toBeChecked();
    else await expect(sw).not.toBeChecked();
    if (c.phone) await expect(rowOf(page, c.name)).toContainText(c.phone);
  }
}

async function searchOwn(run: Run) {
  const read = run.page.waitForResponse((r) => CLIENTS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === run.word);
  await searchBox(run.page).fill(run.word);
  await read;
  run.listPage = 1;
  await expectList(run);
}

async function pickFilter(run: Run, filter: Filter | 'active') {
  const read = run.page.waitForResponse((r) => CLIENTS(new URL(r.url())) && r.request().method() === 'GET');
  await chip(run.page, filter === 'all' ? 'All' : filter === 'active' ? 'Active' : 'Inactive').click();
  await read;
  run.listPage = 1;
}

/** The list's read fails (a 500) as the superuser picks another chip; then Try again, or the chip picked back, reads it. */
async function failRead(run: Run, retry: boolean) {
  const { page } = run;
  await page.route(CLIENTS, (route) => (route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));
  const back = run.filter;
  await pickFilter(run, 'active');
  await expectToast(page, CLIENTS_FETCH_FAILED);
  await page.unroute(CLIENTS);
  const read = page.waitForResponse((r) => CLIENTS(new URL(r.url())) && r.request().method() === 'GET');
  if (retry) {
    await page.getByRole('button', { name: 'Try again' }).click();
    await read;
    await pickFilter(run, back);
  } else {
    await chip(page, back === 'all' ? 'All' : 'Inactive').click();
    await read;
  }
  await expectList(run);
}

async function expectDialog(run: Run, errors: string[]) {
  const d = formDialog(run.page, run.draft!.kind);
  await expect(d).toBeVisible();
  for (const text of [CLIENT_NAME_REQUIRED, CLIENT_EMAIL_REQUIRED, CLIENT_ORIGIN_REQUIRED, PACKAGE_REQUIRED]) {
    await expect(d.getByText(text, { exact: true })).toHaveCount(errors.includes(text) ? 1 : 0);
  }
}

async function perform(run: Run, event: Step, nextEvent: Step | undefined) {
  const { page } = run;
  const next = nextEvent?.type;
  const c1 = run.mine[0]!;
  const name = stepName(event);
  if (name.startsWith('field.package')) {
    const type = name.includes('premium') ? 'Premium' : 'Standard';
    await formDialog(page, 'register').getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: type }).click();
    run.draft!.packageType = type.toLowerCase();
    if (type === 'Standard') await expect(formDialog(page, 'register').getByRole('button', { name: /Auth Type/ })).toContainText('Email');
    return;
  }
  switch (name) {
    case 'clients.search':
      await searchOwn(run);
      return;
    case 'clients.filter': {
      const status = ((event.filters as { status?: Filter }).status ?? 'all') as Filter;
      if (run.filter === status) await pickFilter(run, 'active');
      run.filter = status;
      await pickFilter(run, status);
      await expectList(run);
      return;
    }
    case 'clients.goTo': {
      const read = page.waitForResponse((r) => CLIENTS(new URL(r.url())) && new URL(r.url()).searchParams.get('page') === '2');
      await page.getByRole('navigation', { name: /pagination/i }).getByRole('button', { name: 'Page 2' }).click();
      await read;
      run.listPage = 2;
      await expectList(run);
      return;
    }
    case 'notice.show':
      await failRead(run, false);
      return;
    case 'clients.retry':
      await failRead(run, true);
      return;
    case 'client.switchStatus': {
      const shows = shownStatus(event);
      if (c1.status !== shows) {
        const headers = await superuserHeaders(page.request);
        const answer = await page.request.patch(`/api/v1/clients/${c1.id}/status?status=${shows}`, { headers });
        expect(answer.ok()).toBe(true);
        c1.status = shows;
        await page.reload();
        await expect(heading(page)).toBeVisible();
        run.filter = 'all';
        await searchOwn(run);
      }
      if (run.filter !== 'all' && c1.status !== run.filter) {
        run.filter = 'all';
        await pickFilter(run, 'all');
        await expectList(run);
      }
      if (next === 'xstate.error.actor.act') await page.route(STATUS, (route) => route.abort('connectionfailed'));
      await rowOf(page, c1.name).getByRole('switch', { name: `Status of ${c1.name}` }).focus();
      await page.keyboard.press('Space');
      if (!next) await perform(run, { type: 'xstate.done.actor.act' }, undefined);
      return;
    }
    case 'xstate.done.actor.act':
      await expectToast(page, CLIENT_STATUS_UPDATED);
      c1.status = c1.status === 'active' ? 'inactive' : 'active';
      await expectList(run);
      return;
    case 'xstate.error.actor.act':
      // The spec's sentence; the row stays as it was.
      await expectToast(page, CLIENT_STATUS_UPDATE_FAILED);
      await expectList(run);
      await page.unroute(STATUS);
      return;
    case 'client.register': {
      run.draft = { kind: 'register', filled: false, packageType: null, phone: null };
      await page.getByRole('button', { name: 'Register New Client' }).click();
      const d = formDialog(page, 'register');
      await expect(d.getByLabel('Maximum Users')).toHaveValue('1');
      await expect(d.getByLabel('Fair Use')).toHaveValue('1');
      await expect(d.getByRole('button', { name: /Auth Type/ })).toContainText('Email');
      await expectDialog(run, []);
      return;
    }
    case 'client.edit':
      run.draft = { kind: 'edit', filled: true, packageType: null, phone: c1.phone };
      await rowOf(page, c1.name).getByRole('button', { name: `Edit Client ${c1.name}` }).click();
      await expect(formDialog(page, 'edit').getByLabel('Client Name')).toHaveValue(c1.name);
      await expectDialog(run, []);
      return;
    case 'field.contact': {
      const d = formDialog(page, 'register');
      const slug = `${run.word.toLowerCase()}-new`;
      await d.getByLabel('Client Name').fill(`${run.word} New`);
      await d.getByRole('textbox', { name: 'Email' }).fill(`${slug}@client.test`);
      await d.getByLabel('Origin URL').fill(`https://${slug}.client.test`);
      run.draft!.filled = true;
      return;
    }
    case 'field.phone':
      run.draft!.phone = '+60 3-1234 5678';
      await formDialog(page, 'edit').getByLabel('Phone').fill(run.draft!.phone);
      await expectDialog(run, []);
      return;
    case 'form.submit': {
      const draft = run.draft!;
      const errors = draft.kind === 'edit' ? [] : [...(draft.filled ? [] : [CLIENT_NAME_REQUIRED, CLIENT_EMAIL_REQUIRED, CLIENT_ORIGIN_REQUIRED]), ...(draft.packageType ? [] : [PACKAGE_REQUIRED])];
      const url = draft.kind === 'register' ? REGISTER : ONE_CLIENT;
      if (next === 'xstate.error.actor.save') await page.route(url, (route) => (route.request().method() === 'GET' ? route.fallback() : route.abort('connectionfailed')));
      await formDialog(page, draft.kind).getByRole('button', { name: draft.kind === 'register' ? 'Register Client' : 'Update' }).click();
      // A draft that breaks the rules is refused at once, in the dialog: each sentence, nothing sent.
      if (errors.length) await expectDialog(run, errors);
      else if (!next) await perform(run, { type: 'xstate.done.actor.save' }, undefined);
      return;
    }
    case 'xstate.done.actor.save': {
      const draft = run.draft!;
      await expectToast(page, draft.kind === 'register' ? CLIENT_REGISTERED : CLIENT_UPDATED);
      await expect(formDialog(page, draft.kind)).toHaveCount(0);
      if (draft.kind === 'register') run.mine.push({ id: '', name: `${run.word} New`, status: 'active', phone: null });
      else c1.phone = draft.phone;
      run.draft = null;
      if (run.filter !== 'all' && draft.kind === 'register') return;
      await expectList(run);
      return;
    }
    case 'xstate.error.actor.save': {
      // The dialog keeps what was typed and says the refusal in it.
      const draft = run.draft!;
      const failed = draft.kind === 'register' ? CLIENT_REGISTER_FAILED : CLIENT_UPDATE_FAILED;
      await expect(toast(page, failed).first()).toBeVisible();
      await expect(formDialog(page, draft.kind).getByText(failed)).toBeVisible();
      await page.unroute(draft.kind === 'register' ? REGISTER : ONE_CLIENT);
      return;
    }
    case 'form.cancel':
      await formDialog(page, run.draft!.kind).getByRole('button', { name: 'Cancel' }).click();
      await expect(formDialog(page, run.draft!.kind)).toHaveCount(0);
      run.draft = null;
      await expectList(run);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

function stepTitle(e: Step) {
  const name = stepName(e);
  if (name === 'client.switchStatus') return `${name}(${shownStatus(e) === 'active' ? 'off' : 'on'})`;
  if (name === 'clients.filter') return `${name}(${(e.filters as { status?: string }).status ?? 'all'})`;
  if (name === 'client.edit') return `${name}(${(e.draft as unknown as ClientDraft).clientId})`;
  return name;
}

async function walk(page: Page, events: Step[], run: Run) {
  await page.goto('/clients');
  await expect(heading(page)).toBeVisible();
  for (const [i, event] of events.entries()) {
    await test.step(stepTitle(event), () => perform(run, event, events[i + 1]));
  }
}

test.describe('clients-list paths (generated from the record editor with machines/clients-list.machine.ts input)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('clients-list (e2e paths)', coverageOf(clientsListMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepTitle).join(' → '), async ({ page }) => {
      test.slow();
      await signInByApi(page, accounts.superuser);
      // The path to page 2 only reads the clients kept for it; every other path has clients of its own.
      if (path.events.some((e) => e.type === 'list.goTo')) {
        expect(path.events.every((e) => e.type.startsWith('list.'))).toBe(true);
        const kept = await pagedClients(page.request);
        const mine = kept.map((c) => ({ id: c.id, name: c.client_name, status: c.status, phone: null }));
        await walk(page, path.events, { page, word: PAGED_WORD, mine, filter: 'all', listPage: 1, draft: null });
        return;
      }
      const word = unique('Cpath').replace(' ', '');
      try {
        const name = `${word} Alpha`;
        const { id } = await registerClient(page.request, name);
        await walk(page, path.events, { page, word, mine: [{ id, name, status: 'active', phone: null }], filter: 'all', listPage: 1, draft: null });
      } finally {
        await deactivateOwn(page.request, word);
      }
    });
  }
});
