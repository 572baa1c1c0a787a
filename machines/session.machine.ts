import { assertEvent, assign, emit, setup } from 'xstate';
import { notProvided } from './not-provided';
import type { LoginRequest, LoginResponse, Tokens } from '../contract/auth';
import type { User } from '../contract/user';

/**
 * The signed-in session: who is logged in and with which tokens.
 * Storage (localStorage keys token/refreshToken/user) mirrors this context from src/; the machine stays pure.
 */
export interface SessionContext {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  /** The last login failure, shown in the login screen's banner. */
  error: string | null;
  /** True from a sign-in until the app has landed on Home (spec: after login the person goes to /home). */
  justSignedIn: boolean;
}

export interface SessionInput {
  token?: string | null;
  refreshToken?: string | null;
  user?: User | null;
}

export type SessionEvent =
  | ({ type: 'session.login' } & LoginRequest)
  | { type: 'session.refresh' }
  | { type: 'session.logout' }
  | { type: 'session.userLoaded'; user: User }
  /** A profile update answered with a user and maybe new tokens: they replace the session. */
  | { type: 'session.replaced'; user: User; tokens?: Tokens }
  | { type: 'session.dismissError' }
  /** The app has shown the landing screen after a sign-in. */
  | { type: 'session.landed' };

export type SessionEmitted = { type: 'session.expired' };

export const LOGIN_FAILED = 'Login failed';

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as 'busy' | 'authenticated' | 'expired',
  },
  actors: {
    login: notProvided<LoginResponse, LoginRequest>('login'),
    refresh: notProvided<Tokens, { refreshToken: string | null }>('refresh'),
    logout: notProvided<void, { refreshToken: string | null }>('logout'),
  },
  guards: {
    hasStoredSession: ({ context }) => Boolean(context.token && context.refreshToken && context.user),
  },
  actions: {
    clearSession: assign({ token: null, refreshToken: null, user: null, justSignedIn: false }),
    clearError: assign({ error: null }),
    rememberUser: assign(({ event }) => {
      assertEvent(event, ['session.userLoaded', 'session.replaced']);
      if (event.type === 'session.replaced' && event.tokens) {
        return { user: event.user, token: event.tokens.access_token, refreshToken: event.tokens.refresh_token };
      }
      return { user: event.user };
    }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    token: input.token ?? null,
    refreshToken: input.refreshToken ?? null,
    user: input.user ?? null,
    error: null,
    justSignedIn: false,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasStoredSession', target: 'loggedIn' }, { target: 'loggedOut', actions: 'clearSession' }],
    },
    loggedOut: {
      on: {
        'session.login': { target: 'authenticating', actions: 'clearError' },
        'session.dismissError': { actions: 'clearError' },
      },
    },
    authenticating: {
      tags: ['busy'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'session.login');
          return { email: event.email, password: event.password };
        },
        onDone: {
          target: 'loggedIn',
          actions: [
            assign(({ event }) => ({
              token: event.output.access_token,
              refreshToken: event.output.refresh_token,
              user: event.output.user,
              error: null,
              justSignedIn: true,
            })),
          ],
        },
        onError: {
          target: 'loggedOut',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error && event.error.message ? event.error.message : LOGIN_FAILED),
          }),
        },
      },
    },
    loggedIn: {
      tags: ['authenticated'],
      on: {
        'session.refresh': 'refreshing',
        'session.logout': 'loggingOut',
        'session.userLoaded': { actions: 'rememberUser' },
        'session.replaced': { actions: 'rememberUser' },
        'session.landed': { actions: assign({ justSignedIn: false }) },
      },
    },
    refreshing: {
      tags: ['authenticated', 'busy'],
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: {
          target: 'loggedIn',
          actions: assign(({ event }) => ({ token: event.output.access_token, refreshToken: event.output.refresh_token })),
        },
        onError: { target: 'expired' },
      },
      on: { 'session.logout': 'loggingOut' },
    },
    expired: {
      tags: ['expired'],
      entry: ['clearSession', emit({ type: 'session.expired' as const })],
      on: { 'session.logout': 'loggingOut' },
    },
    loggingOut: {
      tags: ['busy'],
      invoke: {
        id: 'logout',
        src: 'logout',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: { target: 'loggedOut', actions: 'clearSession' },
        // Logging out locally must never fail because the server is unreachable.
        onError: { target: 'loggedOut', actions: 'clearSession' },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
