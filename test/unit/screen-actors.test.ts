import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Department, DepartmentList } from '../../contract/departments';
import { DEPARTMENT_CREATED, DEPARTMENT_DELETE_FAILED } from '../../contract/departments-constants';
import { departmentEvents, departmentsAdminInput } from '../../machines/departments-admin.machine';
import { notice, type Notice } from '../../machines/notice';
import { pagerMachine } from '../../machines/pager.machine';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import { ApiError } from '../../src/api/api-error';
import { defineDepartmentsActors, type DepartmentsApi } from '../../src/features/departments/departments-actors';
import { defineUsersActors, type UsersApi } from '../../src/features/users/users-actors';
import { userEvents, usersAdminInput } from '../../machines/users-admin.machine';
import { defineDepartmentChoicesActors, departmentChoicesInput } from '../../src/lib/use-organisation-departments';
import type { User } from '../../contract/user';

/**
 * Screens run with fake APIs: the `define<Name>Actors({ api })` factories are the only place a screen's calls are
 * made, so a screen machine provided with them and a fake api behaves as the page does, without a server.
 */

const finance: Department = { id: 'd1', name: 'Finance', units: [] } as unknown as Department;
const pageOf = (departments: Department[]): DepartmentList => ({ departments, page: 1, page_size: 10, total: departments.length, total_pages: 1 }) as DepartmentList;

function fakeDepartmentsApi(overrides: Partial<DepartmentsApi> = {}) {
  const calls: string[] = [];
  let shown = [finance];
  const api: DepartmentsApi = {
    fetchDepartmentPage: async (q) => {
      calls.push(`page ${q.page} '${q.search}'`);
      return pageOf(shown);
    },
    createDepartment: async (name) => {
      calls.push(`create '${name}'`);
      const made = { id: 'd2', name, units: [] } as unknown as Department;
      shown = [...shown, made];
      return made;
    },
    renameDepartment: async () => finance,
    addUnit: async () => ({ id: 'u1', name: 'Audit' }) as never,
    deleteDepartment: async (id) => {
      calls.push(`delete ${id}`);
      throw new ApiError({ status: 0, detail: '' });
    },
    deleteUnit: async () => ({ message: 'ok', unassigned_users: 0 }),
    ...overrides,
  };
  return { api, calls };
}

const listOf = (actor: { getSnapshot(): { children: Record<string, unknown> } }) =>
  actor.getSnapshot().children.list as ReturnType<typeof createActor<typeof pagerMachine>>;

describe('the Departments page with a fake api', () => {
  it('lists, creates a department with its name trimmed, and shows it once the list is read again', async () => {
    const { api, calls } = fakeDepartmentsApi();
    const heard: Notice[] = [];
    const page = createActor(recordEditorMachine.provide({ actors: defineDepartmentsActors({ api }), delays: { REFETCH_LATER: 0 } }), {
      input: departmentsAdminInput,
    });
    page.on('notice.show', (n) => heard.push(n));
    page.start();
    await waitFor(listOf(page), (s) => s.matches('idle'));
    expect(listOf(page).getSnapshot().context.items.map((d) => (d as Department).name)).toEqual(['Finance']);

    page.send(departmentEvents.create());
    page.send(departmentEvents.typeName('  Legal  '));
    page.send({ type: 'form.submit' });
    await waitFor(page, (s) => s.matches('browsing'));
    expect(heard).toEqual([notice('success', DEPARTMENT_CREATED)]);
    await waitFor(listOf(page), (s) => s.context.items.length === 2);
    expect(calls).toEqual(["page 1 ''", "create 'Legal'", "page 1 ''"]);
    page.stop();
  });

  it("says the spec's failure when a delete gets no answer, and keeps the department listed", async () => {
    const { api, calls } = fakeDepartmentsApi();
    const heard: Notice[] = [];
    const page = createActor(recordEditorMachine.provide({ actors: defineDepartmentsActors({ api }) }), { input: departmentsAdminInput });
    page.on('notice.show', (n) => heard.push(n));
    page.start();
    await waitFor(listOf(page), (s) => s.matches('idle'));
    page.send(departmentEvents.deleteDepartment('d1'));
    expect(calls).toEqual(["page 1 ''"]);
    page.send({ type: 'act.confirm' });
    await waitFor(page, (s) => s.matches('browsing'));
    expect(heard).toEqual([notice('error', DEPARTMENT_DELETE_FAILED)]);
    expect(calls).toEqual(["page 1 ''", 'delete d1']);
    expect(listOf(page).getSnapshot().context.items).toHaveLength(1);
    page.stop();
  });
});

describe('the Users page with a fake api', () => {
  const ada = { id: 'u1', email: 'ada@example.com', name: 'Ada', role: 'user', status: 'active', verified: false, department_id: 'd1', unit_id: null } as unknown as User;
  function fakeUsersApi() {
    const calls: string[] = [];
    const api: UsersApi = {
      fetchUserPage: async () => ({ users: [ada], page: 1, page_size: 10, total: 1, total_pages: 1 }) as never,
      updateUser: async (id, body) => ({ ...ada, id, name: body.name! }) as User,
      setUserStatus: async (id, status) => {
        calls.push(`status ${id} ${status}`);
        return { ...ada, status };
      },
      resendActivation: async (id) => {
        calls.push(`resend ${id}`);
        return {} as never;
      },
    };
    return { api, calls };
  }
  const usersPage = (api: UsersApi) =>
    createActor(recordEditorMachine.provide({ actors: defineUsersActors({ api }) }), { input: usersAdminInput('me') }).start();

  it("puts the server's copy of an edited person in their row", async () => {
    const page = usersPage(fakeUsersApi().api);
    await waitFor(listOf(page), (s) => s.matches('idle'));
    page.send(userEvents.edit(ada, 'me'));
    page.send(userEvents.typeName(' Ada Lovelace '));
    page.send({ type: 'form.submit' });
    await waitFor(page, (s) => s.matches('browsing'));
    expect(listOf(page).getSnapshot().context.items).toEqual([{ ...ada, name: 'Ada Lovelace' }]);
    page.stop();
  });

  it("switches a person off once confirmed, with the server's copy in the row, and mails them again", async () => {
    const { api, calls } = fakeUsersApi();
    const page = usersPage(api);
    await waitFor(listOf(page), (s) => s.matches('idle'));
    page.send(userEvents.switchStatus(ada));
    page.send({ type: 'act.confirm' });
    await waitFor(page, (s) => s.matches('browsing'));
    expect(listOf(page).getSnapshot().context.items).toEqual([{ ...ada, status: 'inactive' }]);
    page.send(userEvents.resend(ada.id));
    await waitFor(page, (s) => s.matches('browsing'));
    expect(calls).toEqual(['status u1 inactive', 'resend u1']);
    page.stop();
  });
});

describe('the department choices with a fake api', () => {
  it('come as the one page of the shared pager, every department at once', async () => {
    const choices = createActor(
      pagerMachine.provide({ actors: defineDepartmentChoicesActors({ api: { listAllDepartments: async () => [finance] } }) }),
      { input: departmentChoicesInput },
    ).start();
    await waitFor(choices, (s) => s.matches('idle'));
    expect(choices.getSnapshot().context).toMatchObject({ items: [finance], page: 1, totalPages: 1, error: null });
  });
});
