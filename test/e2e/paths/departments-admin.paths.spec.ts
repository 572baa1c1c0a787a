import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Department } from '../../../contract/departments';
import {
  DEPARTMENT_CREATED,
  DEPARTMENT_DELETE_CONFIRM,
  DEPARTMENT_DELETE_FAILED,
  DEPARTMENT_DELETED,
  DEPARTMENT_NAME_REQUIRED,
  DEPARTMENT_NAME_TAKEN,
  DEPARTMENT_NAME_TOO_LONG,
  DEPARTMENT_UPDATED,
  DEPARTMENTS_FETCH_FAILED,
  NAME_MAX_LENGTH,
  UNIT_CREATED,
  UNIT_DELETE_CONFIRM,
  UNIT_DELETE_FAILED,
  UNIT_DELETED,
  UNIT_NAME_REQUIRED,
  UNIT_NAME_TAKEN,
  UNIT_NAME_TOO_LONG,
} from '../../../contract/departments-constants';
import { DEPARTMENT_PAGE_SIZE } from '../../../machines/departments-admin.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { errorEnvelope, unique, type Step, signedInToken } from './paths-support';
import { departmentsAdminMachine, departmentsAdminPaths as paths, stepName as modelStepName, type NameKind } from './departments-admin.paths-model';

/**
 * The departments admin's generated paths (machines/departments-admin.machine.ts, the model in
 * departments-admin.paths-model.ts), driven through the real Department Management page (/departments) as the
 * organisation's admin.
 *
 * The organisation's departments are shared by every test and by QA on staging: each test creates its own
 * departments through the API, all named with its own unique word, searches that word before it touches any (the
 * list then shows only its own rows), and deletes every department with its word at its end (also those it created
 * or renamed through the page). The demo departments are never touched.
 *
 * A name already taken is the server's real 409 (the test's other department's name, or its unit's, in capitals).
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the list's read failing (a 500 on GET /departments/)
 * and a delete's connection dropped.
 */
const DEPARTMENTS = (url: URL) => url.pathname.endsWith('/api/v1/departments/');
const DEPARTMENT_OR_UNIT = (url: URL) => /\/api\/v1\/departments\/[^/]+(\/units\/[^/]+)?$/.test(url.pathname);

const heading = (page: Page) => page.getByRole('heading', { name: 'Department Management', level: 1 });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search departments' });
const rowHeaders = (page: Page) => page.getByRole('rowheader');
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const unitsOf = (page: Page, name: string) => row(page, name).getByRole('list', { name: `Units of ${name}` });
const dialogs = (page: Page) => page.getByRole('dialog');
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const confirmation = (page: Page, title: string) => page.getByRole('alertdialog', { name: title });

/** A toast says `text`. The person closes it when no dialog holds the page, so a later step sees only its own. */
async function expectToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  if ((await dialogs(page).count()) === 0) {
    await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
    await expect(toast(page, text)).toHaveCount(0);
  }
}

/** The admin's departments through the API, with the signed-in admin's token. */
class DepartmentApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async of(page: Page) {
    return new DepartmentApi(page.request, await signedInToken(page));
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async create(name: string, units: string[]): Promise<Department> {
    const res = await this.request.post('/api/v1/departments/', { headers: this.headers, data: { name } });
    expect(res.status()).toBe(200);
    const dept = ((await res.json()) as { data: Department }).data;
    for (const unit of units) {
      const added = await this.request.post(`/api/v1/departments/${dept.id}/units`, { headers: this.headers, data: { name: unit } });
      expect(added.status()).toBe(200);
      dept.units.push(((await added.json()) as { data: { id: string; name: string } }).data);
    }
    return dept;
  }

  /** Deletes every department whose name has the test's word (made through the API or the page, renamed or not). */
  async cleanUp(word: string) {
    const res = await this.request.get('/api/v1/departments/', { headers: this.headers, params: { search: word, paginate: 'false' } });
    expect(res.status()).toBe(200);
    const found = ((await res.json()) as { data: { departments: Department[] } }).data.departments;
    for (const d of found.filter((d) => d.name.includes(word))) {
      const gone = await this.request.delete(`/api/v1/departments/${d.id}`, { headers: this.headers });
      expect([200, 404]).toContain(gone.status());
    }
  }
}

/** What one test has in hand: its word, its departments as the server has them, what the open dialog is about. */
interface Run {
  page: Page;
  word: string;
  /** The test's departments, by name (the list's order). */
  mine: Department[];
  /** The model's d1, once named. */
  d1: Department | null;
  /** The open dialog: a new department, d1's rename, a unit for d1. */
  edit: 'createDepartment' | 'renameDepartment' | 'addUnit' | null;
  /** What the name field holds. */
  typed: string;
  deletion: { kind: 'department' } | { kind: 'unit'; unit: string } | null;
  /** The list's page. */
  listPage: number;
}

const byName = (a: Department, b: Department) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
/** The test's rows the list shows: its page of them. */
const shown = (run: Run) => [...run.mine].sort(byName).slice((run.listPage - 1) * DEPARTMENT_PAGE_SIZE, run.listPage * DEPARTMENT_PAGE_SIZE);

/** The list as the person sees it: only the test's departments of the page, by name, each with its units. */
async function expectList(run: Run) {
  const { page } = run;
  const names = shown(run).map((d) => d.name);
  await expect(rowHeaders(page)).toHaveText(names);
  for (const d of shown(run)) await expect(unitsOf(page, d.name).getByRole('listitem')).toHaveText([...d.units.map((u) => u.name).sort(), 'Add Unit']);
}

async function d1Of(run: Run) {
  if (!run.d1) {
    const name = await rowHeaders(run.page).first().textContent();
    run.d1 = run.mine.find((d) => d.name === name) ?? null;
    expect(run.d1, `no department of this test listed first (${name})`).toBeTruthy();
  }
  return run.d1!;
}

const dialogTitle = (run: Run) =>
  run.edit === 'addUnit' ? `Add Unit to ${run.d1!.name}` : run.edit === 'renameDepartment' ? 'Edit Department' : 'Add Department';
const nameBox = (run: Run) =>
  run.page.getByRole('dialog', { name: dialogTitle(run) }).getByRole('textbox', { name: run.edit === 'addUnit' ? 'Unit Name' : 'Department Name' });

/** The name the person types for a kind: their own (with the test's word), only spaces, or one character too many. */
function nameFor(run: Run, kind: NameKind) {
  if (kind === 'blank') return '   ';
  if (kind === 'long') return 'x'.repeat(NAME_MAX_LENGTH + 1);
  return run.edit === 'addUnit' ? '  Delta  ' : run.edit === 'renameDepartment' ? `  ${run.d1!.name}-Renamed  ` : `  ${run.word}-New  `;
}

/** A name already taken (case does not count): the test's other department's, or d1's first unit's, in capitals. */
function takenName(run: Run) {
  if (run.edit === 'addUnit') return run.d1!.units[0]!.name.toUpperCase();
  return run.mine.find((d) => d !== run.d1)!.name.toUpperCase();
}

/** The field's rule, as the dialog words it (null: it passes). */
function fieldError(run: Run) {
  const text = run.typed.trim();
  const unit = run.edit === 'addUnit';
  if (text === '') return unit ? UNIT_NAME_REQUIRED : DEPARTMENT_NAME_REQUIRED;
  if (text.length > NAME_MAX_LENGTH) return unit ? UNIT_NAME_TOO_LONG : DEPARTMENT_NAME_TOO_LONG;
  return null;
}

/** The dialog as the person sees it: its title, what they typed, the field's error (or none), Save and Cancel. */
async function expectDialog(run: Run, error: string | null) {
  const dialog = run.page.getByRole('dialog', { name: dialogTitle(run) });
  await expect(dialog).toBeVisible();
  await expect(nameBox(run)).toHaveValue(run.typed);
  for (const text of [DEPARTMENT_NAME_REQUIRED, DEPARTMENT_NAME_TOO_LONG, UNIT_NAME_REQUIRED, UNIT_NAME_TOO_LONG]) {
    await expect(dialog.getByText(text)).toHaveCount(text === error ? 1 : 0);
  }
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeEnabled();
}

async function expectNoDialog(run: Run) {
  await expect(dialogs(run.page)).toHaveCount(0);
  await expect(confirmation(run.page, 'Delete Department')).toHaveCount(0);
  await expect(confirmation(run.page, 'Delete Unit')).toHaveCount(0);
}

async function searchOwn(run: Run, text: string) {
  const searched = run.page.waitForResponse((r) => DEPARTMENTS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === text);
  await searchBox(run.page).fill(text);
  return searched;
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (modelStepName(event)) {
    case 'departments.search':
      await searchOwn(run, run.word);
      run.listPage = 1;
      await expectList(run);
      await expect(row(page, 'Finance')).toHaveCount(0);
      return;
    case 'departments.goTo': {
      // More than a page of them: page 2 shows the rest.
      const read = page.waitForResponse((r) => DEPARTMENTS(new URL(r.url())) && new URL(r.url()).searchParams.get('page') === '2');
      await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
      await read;
      run.listPage = 2;
      await expectList(run);
      return;
    }
    case 'notice.show': {
      // The list's read fails (a 500) on a new search: the list says so and keeps what it showed; the next search
      // brings the test's departments again.
      await page.route(DEPARTMENTS, (route) => (route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));
      await (await searchOwn(run, `${run.word}-none`)).finished();
      await expectToast(page, DEPARTMENTS_FETCH_FAILED);
      await expectList(run);
      await page.unroute(DEPARTMENTS);
      await searchOwn(run, run.word);
      await expectList(run);
      return;
    }
    case 'department.new':
      run.edit = 'createDepartment';
      run.typed = '';
      await page.getByRole('button', { name: 'Add Department' }).click();
      await expectDialog(run, null);
      await expect(nameBox(run)).toBeFocused();
      return;
    case 'department.edit': {
      const d1 = await d1Of(run);
      run.edit = 'renameDepartment';
      run.typed = d1.name;
      await row(page, d1.name).getByRole('button', { name: `Edit department ${d1.name}` }).click();
      await expectDialog(run, null);
      return;
    }
    case 'unit.add': {
      const d1 = await d1Of(run);
      run.edit = 'addUnit';
      run.typed = '';
      await row(page, d1.name).getByRole('button', { name: `Add unit to ${d1.name}` }).click();
      await expectDialog(run, null);
      return;
    }
    case 'field.name':
      run.typed = nameFor(run, event.kind as NameKind);
      await nameBox(run).fill(run.typed);
      // Typing clears the field's error.
      await expectDialog(run, null);
      return;
    case 'form.submit': {
      if (next?.type === 'xstate.error.actor.save') {
        // The person types a name that is already there (the server alone knows it).
        run.typed = takenName(run);
        await nameBox(run).fill(run.typed);
      }
      const error = fieldError(run);
      await page.getByRole('dialog', { name: dialogTitle(run) }).getByRole('button', { name: 'Save' }).click();
      // A name that breaks the rule is refused at once, in the dialog, and nothing is sent.
      if (error) await expectDialog(run, error);
      // A path may end here: the server then saves it, as it does the first time.
      else if (!next) await perform(run, { type: 'xstate.done.actor.save' }, undefined);
      return;
    }
    case 'xstate.done.actor.save': {
      const name = run.typed.trim();
      const d1 = run.d1;
      if (run.edit === 'createDepartment') {
        await expectToast(page, DEPARTMENT_CREATED);
        await expectNoDialog(run);
        // The list is read again 1 s later: the new department shows then, in its place by name.
        run.mine.push({ id: '', name, units: [] });
      } else if (run.edit === 'renameDepartment') {
        await expectToast(page, DEPARTMENT_UPDATED);
        await expectNoDialog(run);
        d1!.name = name;
      } else {
        await expectToast(page, UNIT_CREATED);
        await expectNoDialog(run);
        d1!.units.push({ id: '', name });
      }
      run.edit = null;
      await expectList(run);
      return;
    }
    case 'xstate.error.actor.save':
      // The server's sentence; the dialog stays with what was typed, to be changed.
      await expectToast(page, run.edit === 'addUnit' ? UNIT_NAME_TAKEN : DEPARTMENT_NAME_TAKEN);
      await expectDialog(run, null);
      return;
    case 'form.cancel':
      await page.getByRole('dialog', { name: dialogTitle(run) }).getByRole('button', { name: 'Cancel' }).click();
      run.edit = null;
      await expectNoDialog(run);
      await expectList(run);
      return;
    case 'department.delete': {
      const d1 = await d1Of(run);
      run.deletion = { kind: 'department' };
      await row(page, d1.name).getByRole('button', { name: `Delete department ${d1.name}` }).click();
      await expect(confirmation(page, 'Delete Department')).toContainText(DEPARTMENT_DELETE_CONFIRM);
      return;
    }
    case 'unit.delete': {
      const d1 = await d1Of(run);
      const unit = d1.units[0]!.name;
      run.deletion = { kind: 'unit', unit };
      await unitsOf(page, d1.name).getByRole('button', { name: `Delete unit ${unit}` }).click();
      await expect(confirmation(page, 'Delete Unit')).toContainText(UNIT_DELETE_CONFIRM);
      return;
    }
    case 'act.cancel': {
      const title = run.deletion!.kind === 'unit' ? 'Delete Unit' : 'Delete Department';
      await confirmation(page, title).getByRole('button', { name: 'Cancel' }).click();
      run.deletion = null;
      await expectNoDialog(run);
      await expectList(run);
      return;
    }
    case 'act.confirm': {
      const title = run.deletion!.kind === 'unit' ? 'Delete Unit' : 'Delete Department';
      if (next?.type === 'xstate.error.actor.act') {
        await page.route(DEPARTMENT_OR_UNIT, (route) => (route.request().method() === 'DELETE' ? route.abort('connectionfailed') : route.fallback()));
      }
      await confirmation(page, title).getByRole('button', { name: 'Delete' }).click();
      // A path may end here: the server then deletes it, as it does the first time.
      if (!next) await perform(run, { type: 'xstate.done.actor.act' }, undefined);
      return;
    }
    case 'xstate.done.actor.act': {
      const d1 = run.d1!;
      const deletion = run.deletion!;
      await expectToast(page, deletion.kind === 'unit' ? UNIT_DELETED : DEPARTMENT_DELETED);
      await expectNoDialog(run);
      if (deletion.kind === 'unit') d1.units = d1.units.filter((u) => u.name !== deletion.unit);
      else run.mine = run.mine.filter((d) => d !== d1);
      run.deletion = null;
      await expectList(run);
      return;
    }
    case 'xstate.error.actor.act': {
      const deletion = run.deletion!;
      // Nothing is deleted: the list as it was.
      await expectToast(page, deletion.kind === 'unit' ? UNIT_DELETE_FAILED : DEPARTMENT_DELETE_FAILED);
      await expectNoDialog(run);
      run.deletion = null;
      await expectList(run);
      await page.unroute(DEPARTMENT_OR_UNIT);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** 'departments.search → department.new → field.name(valid) → ...'. */
const stepName = (e: Step) => (modelStepName(e) === 'field.name' ? `field.name(${e.kind as string})` : modelStepName(e));

test.describe('departments-admin paths (generated from machines/departments-admin.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('departments-admin (e2e paths)', coverageOf(departmentsAdminMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      await signInByApi(page, accounts.admin);
      const api = await DepartmentApi.of(page);
      const word = unique('Dept').replace(' ', '-');
      try {
        // Two departments (the first with two units); more than a page of them when the path goes to page 2.
        const count = path.events.some((e) => e.type === 'list.goTo') ? DEPARTMENT_PAGE_SIZE + 1 : 2;
        const mine: Department[] = [];
        for (let i = 1; i <= count; i++) mine.push(await api.create(`${word}-${String(i).padStart(2, '0')}`, i === 1 ? ['Alpha', 'Beta'] : []));
        const run: Run = { page, word, mine, d1: null, edit: null, typed: '', deletion: null, listPage: 1 };
        await page.goto('/departments');
        await expect(heading(page)).toBeVisible();
        for (const [i, event] of path.events.entries()) {
          await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        await api.cleanUp(word);
      }
    });
  }
});
