import type { User } from '../contract/user';
import type { UpdateUserRequest } from '../contract/users';
import { VERIFICATION_EMAIL_FAILED, VERIFICATION_EMAIL_SENT } from '../contract/registration-constants';
import {
  USER_NAME_MAX_LENGTH,
  USER_NAME_REQUIRED,
  USER_NAME_TOO_LONG,
  USER_PAGE_SIZE,
  USER_STATUS_UPDATE_FAILED,
  USER_STATUS_UPDATED,
  USER_UPDATE_FAILED,
  USER_UPDATED,
  USERS_FETCH_FAILED,
} from '../contract/users-constants';
import type { PagerInput } from './pager.machine';
import type { ActRecordEvent, ChangeRecordEvent, Draft, EditRecordEvent, RecordEditorEvent, RecordEditorInput } from './record-editor.machine';

/**
 * The Users page ('User Management', administration spec sections 2, 4 "User status", 5 "Edit user", 8, 9):
 * the organisation's people, their status, the Edit User dialog and the activation e-mail sent again. The page's
 * machine is the shared record editor (machines/record-editor.machine.ts) with `usersAdminInput(meId)` and
 * `userEvents`:
 *
 * The list: 10 a page with page buttons, search after 2000 ms of quiet, and a status filter (All, Active,
 * Inactive). One change at a time:
 * - The status switch is an act (`kind: 'status'`, the opposite status): the row changes only when the server says
 *   so (the server's copy goes into the list); a failure leaves the row as it was. A person's own row is never
 *   switched (`rules.mayAct`; the server refuses too, the view asks `can()`). Switching an active person off first
 *   asks ('Deactivate User': it ends their access at once; a slip of the finger on a phone's list should not);
 *   switching an inactive person on needs no confirmation.
 * - The Edit User dialog (`record.edit`) saves with the server's copy put in the list, or keeps what was typed
 *   with the server's sentence else the spec's. Update needs a department, and a unit when the department has any
 *   (`rules.ready`, so `can()` disables the button); the name is checked before any call. A new department clears
 *   the unit, no unit before a department, and one's own role does not change (`rules.change`; the server refuses
 *   changing it, and the view does not offer it).
 * - Resending the activation e-mail of a person still to verify is an act too (`kind: 'resend'`); the list stays.
 */

/** Spec section 9: user search debounce 2000 ms. */
export const USER_SEARCH_DEBOUNCE_MS = 2000;

export const userListInput: PagerInput = {
  pageSize: USER_PAGE_SIZE,
  mode: 'replace',
  search: { minLength: 1, debounceMs: USER_SEARCH_DEBOUNCE_MS },
  messages: { load: USERS_FETCH_FAILED, loadMore: USERS_FETCH_FAILED },
};

export type StatusFilter = 'all' | 'active' | 'inactive';
export type EditableRole = 'user' | 'admin';

/** What the Edit User dialog holds. */
export interface UserDraft {
  userId: string;
  email: string;
  name: string;
  role: EditableRole;
  departmentId: string | null;
  unitId: string | null;
  /** The chosen department has units, so one of them must be chosen too (administration spec section 5). */
  unitRequired: boolean;
  /** The signed-in person's own row: the role is not theirs to change. */
  own: boolean;
}

/** What the `save` slot is asked for: the PATCH /users/{id} body (no role for one's own row). */
export interface SaveUserRequest {
  userId: string;
  body: UpdateUserRequest;
}

/** What the `act` slot is asked to do: switch a person to `status` (`name`: theirs, for the question), or mail them again. */
export type UserAct = { kind: 'status'; userId: string; status: User['status']; name: string } | { kind: 'resend'; userId: string };

/** The dialog's rule for the name, in the server's words. */
export function userNameError(name: string): string | null {
  const text = name.trim();
  if (text === '') return USER_NAME_REQUIRED;
  if (text.length > USER_NAME_MAX_LENGTH) return USER_NAME_TOO_LONG;
  return null;
}

/** The opposite status: what the switch asks for. */
export const oppositeStatus = (status: User['status']): User['status'] => (status === 'active' ? 'inactive' : 'active');

/** The PATCH body of a draft: the name trimmed; the role only when it may change. */
export function saveRequestOf(draft: UserDraft): SaveUserRequest {
  const body: UpdateUserRequest = { name: draft.name.trim(), department_id: draft.departmentId, unit_id: draft.unitId };
  if (!draft.own) body.role = draft.role;
  return { userId: draft.userId, body };
}

/** Update needs a department, and a unit when the department has any. */
export const placementComplete = (draft: UserDraft): boolean => draft.departmentId !== null && (!draft.unitRequired || draft.unitId !== null);

/** What the dialog's fields change: `patch` is what the person picked or typed. */
export function changeUserDraft(draft: UserDraft, patch: Partial<UserDraft>): UserDraft {
  const next = { ...draft };
  if (patch.name !== undefined) next.name = patch.name;
  // One's own role is not offered; a change of it changes nothing.
  if (patch.role !== undefined && !draft.own) next.role = patch.role;
  if (patch.departmentId !== undefined) {
    // A new department clears the unit (it belonged to the old one).
    next.departmentId = patch.departmentId;
    next.unitId = patch.departmentId === draft.departmentId ? draft.unitId : null;
    next.unitRequired = patch.departmentId !== null && (patch.unitRequired ?? false);
  }
  // No unit before a department is chosen (the Unit select is disabled then).
  if (patch.unitId !== undefined && draft.departmentId !== null) next.unitId = patch.unitId;
  return next;
}

const asUser = (draft: Draft) => draft as unknown as UserDraft;

/** The record editor's input for the Users page of the signed-in person `meId`. */
export const usersAdminInput = (meId: string): RecordEditorInput => ({
  list: userListInput,
  rules: {
    errors: (draft) => {
      const error = userNameError(asUser(draft).name);
      return error ? { name: error } : null;
    },
    ready: (draft) => placementComplete(asUser(draft)),
    change: (draft, patch) => changeUserDraft(asUser(draft), patch as Partial<UserDraft>) as unknown as Draft,
    request: (draft) => saveRequestOf(asUser(draft)),
    mayAct: (target) => !((target as UserAct).kind === 'status' && (target as UserAct).userId === meId),
  },
});

type ListEvent<T extends RecordEditorEvent['type']> = Extract<RecordEditorEvent, { type: T }>;
type Person = Pick<User, 'id' | 'email' | 'name' | 'role' | 'department_id' | 'unit_id'>;

/** The page's events, with the spec's words for each change. */
export const userEvents = {
  search: (text: string): ListEvent<'list.search'> => ({ type: 'list.search', text }),
  filter: (status: StatusFilter): ListEvent<'list.filter'> => ({ type: 'list.filter', filters: status === 'all' ? {} : { status } }),
  goTo: (page: number): ListEvent<'list.goTo'> => ({ type: 'list.goTo', page }),
  retry: (): ListEvent<'list.retry'> => ({ type: 'list.retry' }),
  /**
   * Edit User for `user`, as `meId` sees them. `unitRequired`: the person's department has units (absent: it has
   * none, or they have no department).
   */
  edit: (user: Person, meId: string, unitRequired = false): EditRecordEvent => {
    const draft: UserDraft = {
      userId: user.id,
      email: user.email,
      name: user.name,
      // A superuser is never listed for an admin; were one shown, the dialog still offers only these two.
      role: user.role === 'admin' ? 'admin' : 'user',
      departmentId: user.department_id,
      unitId: user.unit_id,
      unitRequired,
      own: user.id === meId,
    };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: USER_UPDATED, failed: USER_UPDATE_FAILED, then: 'upsert' } };
  },
  typeName: (text: string): ChangeRecordEvent => ({ type: 'record.change', patch: { name: text } }),
  pickRole: (role: EditableRole): ChangeRecordEvent => ({ type: 'record.change', patch: { role } }),
  /** `unitRequired`: the department has units (the view knows the departments; absent: it has none). */
  pickDepartment: (departmentId: string | null, unitRequired = false): ChangeRecordEvent => ({
    type: 'record.change',
    patch: { departmentId, unitRequired },
  }),
  pickUnit: (unitId: string | null): ChangeRecordEvent => ({ type: 'record.change', patch: { unitId } }),
  /** The switch of a row showing `user.status`: to the opposite, asked first when it turns the person off. */
  switchStatus: (user: Pick<User, 'id' | 'status' | 'name'>): ActRecordEvent => ({
    type: 'record.act',
    target: { kind: 'status', userId: user.id, status: oppositeStatus(user.status), name: user.name } satisfies UserAct,
    plan: { done: USER_STATUS_UPDATED, failed: USER_STATUS_UPDATE_FAILED, then: 'upsert' },
    confirm: user.status === 'active',
  }),
  resend: (userId: string): ActRecordEvent => ({
    type: 'record.act',
    target: { kind: 'resend', userId } satisfies UserAct,
    plan: { done: VERIFICATION_EMAIL_SENT, failed: VERIFICATION_EMAIL_FAILED, then: 'keep' },
    confirm: false,
  }),
};
