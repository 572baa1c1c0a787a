import { expect, test, type Page } from '@playwright/test';
import type { Department } from '../../../contract/departments';
import type { User } from '../../../contract/user';
import { VERIFICATION_EMAIL_FAILED, VERIFICATION_EMAIL_SENT } from '../../../contract/registration-constants';
import {
  OWN_ROLE_UNCHANGEABLE,
  USER_NAME_MAX_LENGTH,
  USER_NAME_REQUIRED,
  USER_NAME_TOO_LONG,
  USER_STATUS_UPDATE_FAILED,
  USER_STATUS_UPDATED,
  USER_UPDATE_FAILED,
  USER_UPDATED,
  USERS_FETCH_FAILED,
} from '../../../contract/users-constants';
import { USER_PAGE_SIZE } from '../../../contract/users-constants';
import { USER_SEARCH_DEBOUNCE_MS, type UserAct, type UserDraft } from '../../../machines/users-admin.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { UsersApi } from '../helpers/users-api';
import { errorEnvelope, unique, type Step } from './paths-support';
import { shownStatus, stepName, usersAdminMachine, usersAdminPaths as paths, type NameKind } from './users-admin.paths-model';

/**
 * The users admin's generated paths (the record editor with machines/users-admin.machine.ts' input, the model in
 * users-admin.paths-model.ts), driven through the real User Management page (/users) as the organisation's admin.
 *
 * The organisation's people are shared by every test and by QA on staging: each test registers its own people through
 * the API (and a department with two units), all named with its own unique word, searches that word before it touches
 * any (the list then shows only its own rows), and deactivates its people and deletes its department at its end. The
 * demo accounts are never changed: the admin's own dialog is only opened and cancelled.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the list's read failing (a 500 on GET /users/) and the
 * connection of a save, a status switch or a resend dropped.
 */
const USERS = (url: URL) => url.pathname.endsWith('/api/v1/users/');
const ONE_USER = (url: URL) => /\/api\/v1\/users\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/users/');
const STATUS = (url: URL) => /\/api\/v1\/users\/[^/]+\/status$/.test(url.pathname);
const RESEND = (url: URL) => url.pathname.endsWith('/api/v1/auth/resend-activation');

const heading = (page: Page) => page.getByRole('heading', { name: 'User Management', level: 1 });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search users' });
const rowHeaders = (page: Page) => page.getByRole('table', { name: 'Users' }).getByRole('rowheader');
const row = (page: Page, email: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: email }) });
const chip = (page: Page, name: string) => page.getByRole('radiogroup', { name: 'Filter by status' }).getByRole('radio', { name, exact: true });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Edit User' });
const confirmDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Deactivate User' });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const banner = (page: Page) => page.getByRole('main').getByRole('alert').filter({ hasText: USERS_FETCH_FAILED });

/** A toast says `text`. The person closes it when no dialog holds the page, so a later step sees only its own. */
async function expectToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  if ((await page.getByRole('dialog').count()) === 0) {
    await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
    await expect(toast(page, text)).toHaveCount(0);
  }
}

type Filter = 'all' | 'active';

/** What one test has in hand: its word, its people and department as the server has them, the list and dialog. */
interface Run {
  page: Page;
  api: UsersApi;
  word: string;
  /** The test's people by name (u1 first, u2 second, then any more for page 2). */
  mine: User[];
  dept: Department;
  filter: Filter;
  listPage: number;
  /** The rows the list shows (ids): a status switch changes a row in place, only a new read re-filters. */
  shown: string[];
  /** The open dialog's person and what it holds. */
  draft: { own: boolean; name: string; role: 'user' | 'admin'; departmentId: string | null; unitId: string | null } | null;
}

const u1 = (run: Run) => run.mine[0]!;
const u2 = (run: Run) => run.mine[1]!;
const byName = (a: User, b: User) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0);

/** The list is read again: the test's people that pass the filter, by name, this page of them. */
function reread(run: Run) {
  const passing = [...run.mine].filter((u) => run.filter === 'all' || u.status === run.filter).sort(byName);
  run.shown = passing.slice((run.listPage - 1) * USER_PAGE_SIZE, run.listPage * USER_PAGE_SIZE).map((u) => u.id);
}

/** The list as the person sees it: the shown people, each with name, e-mail, role, verification and status. */
async function expectList(run: Run) {
  const { page } = run;
  const shown = run.shown.map((id) => run.mine.find((u) => u.id === id)!);
  await expect(rowHeaders(page)).toHaveCount(shown.length);
  for (const u of shown) {
    const r = row(page, u.email);
    await expect(r).toContainText(u.name);
    await expect(r).toContainText(u.role === 'admin' ? 'Admin' : 'User');
    await expect(r).toContainText('Unverified');
    const sw = r.getByRole('switch', { name: `Status of ${u.name}` });
    if (u.status === 'active') await expect(sw).toBeChecked();
    else await expect(sw).not.toBeChecked();
  }
}

/** Types a search and waits for its read, which comes only after the spec's 2 s of quiet. */
async function search(run: Run, text: string) {
  const read = run.page.waitForResponse((r) => USERS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === text, {
    timeout: USER_SEARCH_DEBOUNCE_MS + 10_000,
  });
  const typed = Date.now();
  await searchBox(run.page).fill(text);
  await read;
  expect(Date.now() - typed).toBeGreaterThanOrEqual(USER_SEARCH_DEBOUNCE_MS - 100);
}

async function searchOwn(run: Run) {
  await search(run, run.word);
  run.listPage = 1;
  reread(run);
  await expectList(run);
}

async function pickFilter(run: Run, filter: Filter) {
  const read = run.page.waitForResponse((r) => USERS(new URL(r.url())));
  await chip(run.page, filter === 'all' ? 'All' : 'Active').click();
  await read;
}

/**
 * The list's read fails (a 500) when the person picks the other chip: a toast, and a banner with Try again above the
 * rows it showed; with `retry`, Try again then reads the list as the chip says.
 */
async function failRead(run: Run, retry: boolean) {
  const { page } = run;
  await page.route(USERS, (route) => (route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));
  run.filter = run.filter === 'all' ? 'active' : 'all';
  await pickFilter(run, run.filter);
  await expectToast(page, USERS_FETCH_FAILED);
  await expect(banner(page)).toBeVisible();
  await expectList(run);
  await page.unroute(USERS);
  if (!retry) {
    // The next read (the person goes back to the chip they had) clears it.
    run.filter = run.filter === 'all' ? 'active' : 'all';
    await pickFilter(run, run.filter);
  } else {
    await page.getByRole('button', { name: 'Try again' }).click();
  }
  await expect(banner(page)).toHaveCount(0);
  run.listPage = 1;
  reread(run);
  await expectList(run);
}

async function toggle(page: Page, u: User) {
  await row(page, u.email).getByRole('switch', { name: `Status of ${u.name}` }).focus();
  await page.keyboard.press('Space');
}

/** The dialog as the person sees it: what it holds, the field's error (or none), Role, Unit and Update. */
async function expectDialog(run: Run, error: string | null) {
  const d = dialog(run.page);
  const draft = run.draft!;
  await expect(d.getByRole('textbox', { name: 'Full Name' })).toHaveValue(draft.name);
  await expect(d.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');
  for (const text of [USER_NAME_REQUIRED, USER_NAME_TOO_LONG]) await expect(d.getByText(text)).toHaveCount(text === error ? 1 : 0);
  await expect(d.getByRole('button', { name: /Role$/ })).toContainText(draft.role === 'admin' ? 'Admin' : 'User');
  if (draft.own) {
    await expect(d.getByRole('button', { name: /Role$/ })).toBeDisabled();
    await expect(d).toContainText(OWN_ROLE_UNCHANGEABLE);
  }
  // The admin's own department is whatever the demo data says: only the Role rule is checked there.
  if (draft.own) return;
  const unit = d.getByRole('button', { name: /Unit$/ });
  if (draft.departmentId) await expect(unit).toBeEnabled();
  else await expect(unit).toBeDisabled();
  const unitName = run.dept.units.find((u) => u.id === draft.unitId)?.name;
  await expect(unit).toContainText(unitName ?? (draft.departmentId ? 'Select a unit' : 'Select a department first'));
  const update = d.getByRole('button', { name: 'Update' });
  // The test's department has units: Update needs one of them too.
  if (draft.departmentId && draft.unitId) await expect(update).toBeEnabled();
  else await expect(update).toBeDisabled();
}

/** The kind of name a `field.name` step types (the model puts it on the event). */
const nameKind = (e: Step) => e.kind as NameKind;

function nameFor(run: Run, kind: NameKind) {
  if (kind === 'blank') return '   ';
  if (kind === 'long') return 'x'.repeat(USER_NAME_MAX_LENGTH + 1);
  return `  ${run.word} Alpha Renamed  `;
}

async function choose(page: Page, select: RegExp, option: string) {
  await dialog(page).getByRole('button', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function perform(run: Run, event: Step, nextEvent: Step | undefined) {
  const { page } = run;
  // The browser's steps by the person's names for them (the model's generic events are told apart by stepName).
  const next = nextEvent && { type: stepName(nextEvent) };
  switch (stepName(event)) {
    case 'users.search':
      await searchOwn(run);
      return;
    case 'users.filter': {
      const status = ((event.filters as { status?: Filter }).status ?? 'all') as Filter;
      // The chosen chip reads nothing again: the person picks the other one first.
      if (run.filter === status) await pickFilter(run, run.filter === 'all' ? 'active' : 'all');
      run.filter = status;
      await pickFilter(run, run.filter);
      run.listPage = 1;
      reread(run);
      await expectList(run);
      return;
    }
    case 'users.goTo': {
      const read = page.waitForResponse((r) => USERS(new URL(r.url())) && new URL(r.url()).searchParams.get('page') === '2');
      await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
      await read;
      run.listPage = 2;
      reread(run);
      await expectList(run);
      return;
    }
    case 'notice.show':
      await failRead(run, false);
      return;
    case 'users.retry':
      await failRead(run, true);
      return;
    case 'user.switchStatus': {
      if ((event.target as UserAct).userId !== 'u1') {
        // One's own switch is disabled: nothing can be sent.
        await search(run, accounts.admin);
        await expect(row(page, accounts.admin).getByRole('switch')).toBeDisabled();
        await searchOwn(run);
        return;
      }
      // The model's event names the status the row shows: u1 is put in it first (through the API), and the list read
      // again from the start when u1 is not on it (another page, or filtered out).
      const shows = shownStatus(event);
      if (u1(run).status !== shows || !run.shown.includes(u1(run).id)) {
        if (u1(run).status !== shows) await run.api.setStatus(u1(run), shows);
        u1(run).status = shows;
        await page.reload();
        await expect(heading(page)).toBeVisible();
        run.filter = 'all';
        await searchOwn(run);
      }
      const deactivating = shows === 'active';
      if (!deactivating && next?.type === 'xstate.error.actor.switchStatus') await page.route(STATUS, (route) => route.abort('connectionfailed'));
      await toggle(page, u1(run));
      if (deactivating) {
        // Switching someone off asks first; nothing is sent before the admin confirms.
        await expect(confirmDialog(page)).toBeVisible();
        await expect(confirmDialog(page)).toContainText(`${u1(run).name} will no longer be able to sign in`);
        await expectList(run);
        if (!next) await perform(run, { type: 'act.cancel' }, undefined);
      } else if (!next) await perform(run, { type: 'xstate.done.actor.act', act: 'status' }, undefined);
      return;
    }
    case 'deactivation.confirm':
      if (next?.type === 'xstate.error.actor.switchStatus') await page.route(STATUS, (route) => route.abort('connectionfailed'));
      await confirmDialog(page).getByRole('button', { name: 'Deactivate' }).click();
      if (!next) await perform(run, { type: 'xstate.done.actor.act', act: 'status' }, undefined);
      return;
    case 'deactivation.cancel':
      await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(confirmDialog(page)).toHaveCount(0);
      // The row stays as it was, and so does the server's copy.
      await expectList(run);
      expect((await run.api.get(u1(run))).status).toBe(u1(run).status);
      return;
    case 'xstate.done.actor.switchStatus':
      await expect(confirmDialog(page)).toHaveCount(0);
      await expectToast(page, USER_STATUS_UPDATED);
      u1(run).status = u1(run).status === 'active' ? 'inactive' : 'active';
      await expectList(run);
      expect((await run.api.get(u1(run))).status).toBe(u1(run).status);
      return;
    case 'xstate.error.actor.switchStatus':
      await expectToast(page, USER_STATUS_UPDATE_FAILED);
      await expectList(run);
      await page.unroute(STATUS);
      return;
    case 'user.resend':
      if (next?.type === 'xstate.error.actor.resend') await page.route(RESEND, (route) => route.abort('connectionfailed'));
      await row(page, u2(run).email).getByRole('button', { name: `Resend verification email to ${u2(run).name}` }).click();
      if (!next) await perform(run, { type: 'xstate.done.actor.act', act: 'resend' }, undefined);
      return;
    case 'xstate.done.actor.resend':
      await expectToast(page, VERIFICATION_EMAIL_SENT);
      return;
    case 'xstate.error.actor.resend':
      await expectToast(page, VERIFICATION_EMAIL_FAILED);
      await page.unroute(RESEND);
      return;
    case 'user.edit': {
      if ((event.draft as UserDraft).userId !== 'u1') {
        // The admin's own row: found by their address.
        await search(run, accounts.admin);
        await row(page, accounts.admin).getByRole('button', { name: /^Edit user/ }).click();
        const role = (await dialog(page).getByRole('button', { name: /Role$/ }).textContent())?.includes('Admin') ? 'admin' : 'user';
        const name = await dialog(page).getByRole('textbox', { name: 'Full Name' }).inputValue();
        run.draft = { own: true, name, role, departmentId: null, unitId: null };
        await expectDialog(run, null);
        return;
      }
      const u = u1(run);
      run.draft = { own: false, name: u.name, role: u.role === 'admin' ? 'admin' : 'user', departmentId: u.department_id, unitId: u.unit_id };
      await row(page, u.email).getByRole('button', { name: `Edit user ${u.name}` }).click();
      await expectDialog(run, null);
      await expect(dialog(page).getByRole('textbox', { name: 'Full Name' })).toBeFocused();
      return;
    }
    case 'field.name':
      run.draft!.name = nameFor(run, nameKind(event));
      await dialog(page).getByRole('textbox', { name: 'Full Name' }).fill(run.draft!.name);
      await expectDialog(run, null);
      return;
    case 'field.role':
      // One's own role is disabled: nothing to pick, nothing changes.
      if (!run.draft!.own) {
        await choose(page, /Role$/, 'Admin');
        run.draft!.role = 'admin';
      }
      await expectDialog(run, null);
      return;
    case 'field.department':
      await choose(page, /Department$/, run.dept.name);
      if (run.draft!.departmentId !== run.dept.id) run.draft!.unitId = null;
      run.draft!.departmentId = run.dept.id;
      await expectDialog(run, null);
      return;
    case 'field.unit':
      await choose(page, /Unit$/, run.dept.units[1]!.name);
      run.draft!.unitId = run.dept.units[1]!.id;
      await expectDialog(run, null);
      return;
    case 'form.submit': {
      const error = run.draft!.name.trim() === '' ? USER_NAME_REQUIRED : run.draft!.name.trim().length > USER_NAME_MAX_LENGTH ? USER_NAME_TOO_LONG : null;
      if (next?.type === 'xstate.error.actor.save') {
        await page.route(ONE_USER, (route) => (route.request().method() === 'PATCH' ? route.abort('connectionfailed') : route.fallback()));
      }
      await dialog(page).getByRole('button', { name: 'Update' }).click();
      // A name that breaks the rule is refused at once, in the dialog, and nothing is sent.
      if (error) await expectDialog(run, error);
      else if (!next) await perform(run, { type: 'xstate.done.actor.save' }, undefined);
      return;
    }
    case 'xstate.done.actor.save': {
      await expectToast(page, USER_UPDATED);
      await expect(dialog(page)).toHaveCount(0);
      const u = u1(run);
      const d = run.draft!;
      Object.assign(u, { name: d.name.trim(), role: d.role, department_id: d.departmentId, unit_id: d.unitId });
      run.draft = null;
      await expectList(run);
      expect(await run.api.get(u)).toMatchObject({ name: u.name, role: u.role, department_id: u.department_id, unit_id: u.unit_id });
      return;
    }
    case 'xstate.error.actor.save':
      // The dialog stays with what was typed, to be sent again.
      await expectToast(page, USER_UPDATE_FAILED);
      await expectDialog(run, null);
      await page.unroute(ONE_USER);
      return;
    case 'form.cancel': {
      const own = run.draft!.own;
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page)).toHaveCount(0);
      run.draft = null;
      if (own) await searchOwn(run);
      else await expectList(run);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** 'users.search → user.edit(u1) → field.name(blank) → ...'. */
function stepTitle(e: Step) {
  const name = stepName(e);
  const act = e.target as UserAct | undefined;
  if (name === 'field.name') return `${name}(${nameKind(e)})`;
  if (name === 'user.edit') return `${name}(${(e.draft as UserDraft).userId})`;
  if (name === 'user.switchStatus') return `${name}(${act!.userId}${act!.userId === 'u1' ? (shownStatus(e) === 'active' ? ', off' : ', on') : ''})`;
  if (name === 'user.resend') return `${name}(${act!.userId})`;
  if (name === 'users.filter') return `${name}(${(e.filters as { status?: string }).status ?? 'all'})`;
  return name;
}

test.describe('users-admin paths (generated from the record editor with machines/users-admin.machine.ts input)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('users-admin (e2e paths)', coverageOf(usersAdminMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepTitle).join(' → '), async ({ page }) => {
      test.slow();
      await signInByApi(page, accounts.admin);
      const api = await UsersApi.of(page);
      const word = unique('Upath').replace(' ', '');
      try {
        // Two people (u1, u2); more than a page of them when the path goes to page 2.
        const count = path.events.some((e) => e.type === 'list.goTo') ? USER_PAGE_SIZE + 1 : 2;
        const mine: User[] = [];
        for (let i = 1; i <= count; i++) mine.push(await api.register(`${word} ${i === 1 ? 'Alpha' : i === 2 ? 'Beta' : `Person ${String(i).padStart(2, '0')}`}`));
        const dept = await api.department(`${word}-Dept`, ['North', 'South']);
        const run: Run = { page, api, word, mine, dept, filter: 'all', listPage: 1, shown: [], draft: null };
        await page.goto('/users');
        await expect(heading(page)).toBeVisible();
        for (const [i, event] of path.events.entries()) {
          await test.step(stepTitle(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        await api.cleanUp();
      }
    });
  }
});
