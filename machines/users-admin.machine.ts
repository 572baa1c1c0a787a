import { and, assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { User } from '../contract/user';
import type { UpdateUserRequest } from '../contract/users';
import { USER_PAGE_SIZE } from '../contract/users-constants';
import { VERIFICATION_EMAIL_FAILED, VERIFICATION_EMAIL_SENT } from '../contract/registration-constants';
import {
  USER_NAME_MAX_LENGTH,
  USER_NAME_REQUIRED,
  USER_NAME_TOO_LONG,
  USER_STATUS_UPDATE_FAILED,
  USER_STATUS_UPDATED,
  USER_UPDATE_FAILED,
  USER_UPDATED,
  USERS_FETCH_FAILED,
} from '../contract/users-constants';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerInput } from './pager.machine';
import { report } from './report';

/**
 * The Users page ('User Management', administration spec sections 2, 4 "User status", 5 "Edit user", 8, 9):
 * the organisation's people, their status, the Edit User dialog and the activation e-mail sent again.
 *
 * The list is the shared pager (`list`, invoked): 10 a page with page buttons, search after 2000 ms of quiet, and
 * a status filter (All, Active, Inactive). One change at a time, each its own invoked actor:
 * - `switching` (tag `busy`, invokes `switchStatus` with the opposite status): the row changes only when the server
 *   says so (the server's copy goes into the list); a failure leaves the row as it was. A person's own row is never
 *   switched (guard `notOwnRow`; the server refuses too, the view asks `can()`).
 * - `confirmingDeactivation`: switching an active person off first asks (it ends their access at once; a slip of
 *   the finger on a phone's list should not): `deactivation.confirm` goes on to `switching`, `deactivation.cancel`
 *   back to `browsing` with nothing sent. Switching an inactive person on needs no confirmation.
 * - `editing` (the Edit User dialog) -> `saving` (tag `busy`, invokes `save`) -> `browsing` with the server's copy
 *   in the list, or back to `editing` with the server's sentence else the spec's, keeping what was typed. Update
 *   needs a department (guard `hasDepartment`, so `can()` disables the button); the name is checked before any call.
 *   A new department clears the unit. One's own role is not offered (the server refuses changing it).
 * - `resending` (tag `busy`, invokes `resend`): the activation e-mail of a person still to verify.
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

export interface StatusChange {
  userId: string;
  status: User['status'];
}

export interface UsersAdminInput {
  /** The signed-in person's id (their own row cannot be switched off, nor their role changed). */
  meId: string;
}

/** The person whose deactivation waits for the admin's confirmation (their name is the dialog's). */
export interface PendingDeactivation {
  userId: string;
  name: string;
}

export interface UsersAdminContext {
  meId: string;
  deactivating: PendingDeactivation | null;
  draft: UserDraft | null;
  nameError: string | null;
  switching: StatusChange | null;
  resendingFor: string | null;
}

export type UsersAdminEvent =
  | { type: 'users.search'; text: string }
  | { type: 'users.filter'; status: StatusFilter }
  | { type: 'users.goTo'; page: number }
  | { type: 'users.retry' }
  /** `name`: the person's, for the deactivation's confirmation. */
  | { type: 'user.switchStatus'; userId: string; status: User['status']; name?: string }
  | { type: 'deactivation.confirm' }
  | { type: 'deactivation.cancel' }
  | { type: 'user.resend'; userId: string }
  /** `unitRequired`: the person's department has units (absent: it has none, or they have no department). */
  | { type: 'user.edit'; user: Pick<User, 'id' | 'email' | 'name' | 'role' | 'department_id' | 'unit_id'>; unitRequired?: boolean }
  | { type: 'field.name'; text: string }
  | { type: 'field.role'; role: EditableRole }
  /** `unitRequired`: the department has units (the view knows the departments; absent: it has none). */
  | { type: 'field.department'; departmentId: string | null; unitRequired?: boolean }
  | { type: 'field.unit'; unitId: string | null }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  /** From the list: its failure toasts, passed on. */
  | Notice
  | DoneActorEvent<User, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<User, 'switchStatus'>
  | ErrorActorEvent<unknown, 'switchStatus'>
  | DoneActorEvent<unknown, 'resend'>
  | ErrorActorEvent<unknown, 'resend'>;

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

const closed = { draft: null, nameError: null };

export const usersAdminMachine = setup({
  types: {
    context: {} as UsersAdminContext,
    events: {} as UsersAdminEvent,
    input: {} as UsersAdminInput,
    emitted: {} as Notice,
    tags: {} as 'busy',
    children: {} as { list: 'list'; save: 'save'; switchStatus: 'switchStatus'; resend: 'resend' },
  },
  actors: {
    list: pagerMachine,
    save: notProvided<User, SaveUserRequest>('save'),
    switchStatus: notProvided<User, StatusChange>('switchStatus'),
    resend: notProvided<unknown, { userId: string }>('resend'),
  },
  guards: {
    notOwnRow: ({ context, event }) => {
      assertEvent(event, 'user.switchStatus');
      return event.userId !== context.meId;
    },
    /** The switch would turn an active person off. */
    isDeactivation: ({ event }) => {
      assertEvent(event, 'user.switchStatus');
      return event.status === 'active';
    },
    hasDepartment: ({ context }) => context.draft?.departmentId != null,
    /** Update needs a department, and a unit when the department has any. */
    placementComplete: ({ context }) =>
      context.draft?.departmentId != null && (!context.draft.unitRequired || context.draft.unitId != null),
    nameIsValid: ({ context }) => userNameError(context.draft?.name ?? '') === null,
    isOwnDraft: ({ context }) => context.draft?.own === true,
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportSaved: report(() => notice('success', USER_UPDATED)),
    reportSaveFailed: report(({ event }: { event: { error?: unknown } }) => notice('error', serverDetailOf(event.error) ?? USER_UPDATE_FAILED)),
    reportSwitched: report(() => notice('success', USER_STATUS_UPDATED)),
    reportSwitchFailed: report(({ event }: { event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? USER_STATUS_UPDATE_FAILED),
    ),
    reportResent: report(() => notice('success', VERIFICATION_EMAIL_SENT)),
    reportResendFailed: report(({ event }: { event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? VERIFICATION_EMAIL_FAILED),
    ),
    /** The server's copy of the person replaces the row (never adds one: the page shows what it read). */
    showServerCopy: sendTo('list', ({ event }) => {
      assertEvent(event, ['xstate.done.actor.save', 'xstate.done.actor.switchStatus']);
      return { type: 'item.upsert' as const, item: event.output, insert: false };
    }),
  },
}).createMachine({
  id: 'usersAdmin',
  context: ({ input }) => ({ meId: input.meId, ...closed, switching: null, resendingFor: null, deactivating: null }),
  invoke: { id: 'list', src: 'list', input: ({ self }) => ({ ...userListInput, parent: self }) },
  initial: 'browsing',
  on: {
    'users.search': { actions: sendTo('list', ({ event }) => ({ type: 'pager.search' as const, text: event.text })) },
    'users.filter': {
      actions: sendTo('list', ({ event }) => ({
        type: 'pager.filter' as const,
        filters: event.status === 'all' ? {} : { status: event.status },
      })),
    },
    'users.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
    'users.retry': { actions: sendTo('list', { type: 'pager.load' }) },
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    browsing: {
      description: 'The User Management table with search, status filter and pages.',
      on: {
        'user.switchStatus': [
          {
            guard: and(['notOwnRow', 'isDeactivation']),
            target: 'confirmingDeactivation',
            actions: assign(({ event }) => ({ deactivating: { userId: event.userId, name: event.name ?? '' } })),
          },
          {
            guard: 'notOwnRow',
            target: 'switching',
            actions: assign(({ event }) => ({ switching: { userId: event.userId, status: oppositeStatus(event.status) } })),
          },
        ],
        'user.resend': { target: 'resending', actions: assign(({ event }) => ({ resendingFor: event.userId })) },
        'user.edit': {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            draft: {
              userId: event.user.id,
              email: event.user.email,
              name: event.user.name,
              // A superuser is never listed for an admin; were one shown, the dialog still offers only these two.
              role: event.user.role === 'admin' ? ('admin' as const) : ('user' as const),
              departmentId: event.user.department_id,
              unitId: event.user.unit_id,
              unitRequired: event.unitRequired ?? false,
              own: event.user.id === context.meId,
            },
            nameError: null,
          })),
        },
      },
    },
    confirmingDeactivation: {
      description: 'The Deactivate User dialog is open: nothing is sent until the admin confirms.',
      on: {
        'deactivation.confirm': {
          target: 'switching',
          actions: assign(({ context }) => ({
            switching: { userId: context.deactivating!.userId, status: 'inactive' as const },
            deactivating: null,
          })),
        },
        'deactivation.cancel': { target: 'browsing', actions: assign({ deactivating: null }) },
      },
    },
    switching: {
      description: 'The status of a person is being changed; the row changes when the server says so.',
      tags: ['busy'],
      invoke: {
        id: 'switchStatus',
        src: 'switchStatus',
        input: ({ context }) => context.switching!,
        onDone: { target: 'browsing', actions: ['showServerCopy', 'reportSwitched', assign({ switching: null })] },
        onError: { target: 'browsing', actions: ['reportSwitchFailed', assign({ switching: null })] },
      },
    },
    resending: {
      description: 'The activation email of a person still to verify is being sent again.',
      tags: ['busy'],
      invoke: {
        id: 'resend',
        src: 'resend',
        input: ({ context }) => ({ userId: context.resendingFor! }),
        onDone: { target: 'browsing', actions: ['reportResent', assign({ resendingFor: null })] },
        onError: { target: 'browsing', actions: ['reportResendFailed', assign({ resendingFor: null })] },
      },
    },
    editing: {
      description: 'The Edit User dialog is open.',
      on: {
        'field.name': {
          actions: assign(({ context, event }) => ({ draft: { ...context.draft!, name: event.text }, nameError: null })),
        },
        'field.role': [
          // One's own role is not offered; an event for it changes nothing.
          { guard: 'isOwnDraft' },
          { actions: assign(({ context, event }) => ({ draft: { ...context.draft!, role: event.role } })) },
        ],
        'field.department': {
          // A new department clears the unit (it belonged to the old one).
          actions: assign(({ context, event }) => ({
            draft: {
              ...context.draft!,
              departmentId: event.departmentId,
              unitId: event.departmentId === context.draft!.departmentId ? context.draft!.unitId : null,
              unitRequired: event.departmentId !== null && (event.unitRequired ?? false),
            },
          })),
        },
        'field.unit': [
          // No unit before a department is chosen (the Unit select is disabled then).
          { guard: 'hasDepartment', actions: assign(({ context, event }) => ({ draft: { ...context.draft!, unitId: event.unitId } })) },
        ],
        // Update needs a department (and its unit, when it has units); the name's rule is checked before any call.
        'form.submit': [
          { guard: and(['placementComplete', 'nameIsValid']), target: 'saving' },
          { guard: 'placementComplete', actions: assign(({ context }) => ({ nameError: userNameError(context.draft!.name) })) },
        ],
        'form.cancel': { target: 'browsing', actions: assign(closed) },
      },
    },
    saving: {
      description: 'The changes to the person are being saved; the dialog waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => saveRequestOf(context.draft!),
        onDone: { target: 'browsing', actions: ['showServerCopy', 'reportSaved', assign(closed)] },
        onError: { target: 'editing', actions: 'reportSaveFailed' },
      },
    },
  },
});

export type UsersAdminMachine = typeof usersAdminMachine;
