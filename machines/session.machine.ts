import { assertEvent, assign, emit, setup, spawnChild, stopChild, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { safeReturnPath } from './return-path';
import type { LoginRequest, LoginResponse, Tokens } from '../contract/auth';
import type { User } from '../contract/user';
import type { ThemeChoice } from '../contract/theme';
import { SSO_AUTH_FAILED, SSO_INVALID_CALLBACK, SSO_NO_ACCESS_TOKEN, SSO_REDIRECT_DELAY_MS, SSO_SUCCESS } from '../contract/sso-constants';

/** The SSO callback's tokens, or why there are none (administration spec section 8). */
export function ssoTokens(fragment: string): Tokens | { problem: string } {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  if ([...params.keys()].length === 0) return { problem: SSO_INVALID_CALLBACK };
  const access = params.get('access_token');
  const refresh = params.get('refresh_token');
  if (!access || !refresh) return { problem: SSO_NO_ACCESS_TOKEN };
  return { access_token: access, refresh_token: refresh };
}

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
  /**
   * Where to land after this sign-in instead of Home (a shared link opened while signed out), a path of this app
   * only (safeReturnPath); cleared once landed.
   */
  returnTo: string | null;
  /**
   * The user came from storage and may be out of date (role, package, department changed since): it is loaded
   * again once per restored session. A sign-in brings a fresh one.
   */
  userStale: boolean;
  /** The theme the server had before the choice being saved (null: none pending): a failed save goes back to it. */
  themeBeforeSave: ThemeChoice | null;
}

export interface SessionInput {
  token?: string | null;
  refreshToken?: string | null;
  user?: User | null;
}

export type SessionEvent =
  /** `returnTo`: the page that sent the person to sign in, as the login URL carried it (checked here). */
  | ({ type: 'session.login'; returnTo?: string | null } & LoginRequest)
  | { type: 'session.refresh' }
  | { type: 'session.logout' }
  /** A profile update answered with a user and maybe new tokens: they replace the session. */
  | { type: 'session.replaced'; user: User; tokens?: Tokens }
  | { type: 'session.dismissError' }
  /** The person picked a colour theme: shown at once, saved with them on the server (issue 28). */
  | { type: 'session.themeChosen'; theme: ThemeChoice }
  /** The app has shown the landing screen after a sign-in. */
  | { type: 'session.landed' }
  /** The single sign-on callback screen (/auth/sso) opened, with its URL fragment (`#access_token=...&refresh_token=...`). */
  | { type: 'session.ssoCallback'; fragment: string }
  /** 'Sign in with Microsoft' pressed: the browser is on its way to the provider. */
  | { type: 'session.ssoStart' }
  /** The person came back to the sign-in page without finishing (the browser's Back). */
  | { type: 'session.ssoAbandoned' };

/** How a theme save ended (spawned child `saveTheme`). */
type ThemeSaveOutcome = DoneActorEvent<User, 'saveTheme'> | ErrorActorEvent<unknown, 'saveTheme'>;

export type SessionEmitted = { type: 'session.expired' } | Notice;

export const LOGIN_FAILED = 'Login failed';
/** Spec section 8: the current user could not be loaded. */
export const USER_FETCH_FAILED = 'Failed to fetch user data';
/** Not in the spec: the theme choice could not be saved (it is undone on screen). */
export const THEME_SAVE_FAILED = 'Failed to save your theme';

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent | ThemeSaveOutcome,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as 'busy' | 'authenticated' | 'expired' | 'loadingUser',
    children: {} as { login: 'login'; refresh: 'refresh'; logout: 'logout'; loadUser: 'loadUser'; saveTheme: 'saveTheme' },
  },
  actors: {
    login: notProvided<LoginResponse, LoginRequest>('login'),
    refresh: notProvided<Tokens, { refreshToken: string | null }>('refresh'),
    logout: notProvided<void, { refreshToken: string | null }>('logout'),
    loadUser: notProvided<User, void>('loadUser'),
    saveTheme: notProvided<User, { theme: ThemeChoice }>('saveTheme'),
  },
  guards: {
    isAnotherTheme: ({ context, event }) => event.type === 'session.themeChosen' && (context.user?.theme ?? 'system') !== event.theme,
    hasStoredSession: ({ context }) => Boolean(context.token && context.refreshToken && context.user),
    isUserStale: ({ context }) => context.userStale,
    ssoCarriesTokens: ({ event }) => event.type === 'session.ssoCallback' && !('problem' in ssoTokens(event.fragment)),
  },
  delays: { ssoRedirect: SSO_REDIRECT_DELAY_MS },
  actions: {
    showChosenTheme: assign(({ context, event }) => {
      assertEvent(event, 'session.themeChosen');
      const before = context.themeBeforeSave ?? context.user?.theme ?? 'system';
      return { user: context.user && { ...context.user, theme: event.theme }, themeBeforeSave: before };
    }),
    undoChosenTheme: assign(({ context }) => ({
      user: context.user && context.themeBeforeSave ? { ...context.user, theme: context.themeBeforeSave } : context.user,
      themeBeforeSave: null,
    })),
    clearSession: assign({ token: null, refreshToken: null, user: null, justSignedIn: false, returnTo: null, userStale: false }),
    clearError: assign({ error: null }),
    refuseSsoCallback: assign(({ event }) => {
      assertEvent(event, 'session.ssoCallback');
      const found = ssoTokens(event.fragment);
      return { error: 'problem' in found ? found.problem : null };
    }),
    takeSsoTokens: assign(({ event }) => {
      assertEvent(event, 'session.ssoCallback');
      const tokens = ssoTokens(event.fragment) as Tokens;
      return { token: tokens.access_token, refreshToken: tokens.refresh_token, user: null, error: null, returnTo: null, justSignedIn: false };
    }),
    replaceSession: assign(({ event }) => {
      assertEvent(event, 'session.replaced');
      if (event.tokens) return { user: event.user, token: event.tokens.access_token, refreshToken: event.tokens.refresh_token };
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
    returnTo: null,
    userStale: Boolean(input.user),
    themeBeforeSave: null,
  }),
  // A theme save answers wherever the session has got to meanwhile (a refresh, say); after a logout nothing is undone.
  on: {
    'xstate.done.actor.saveTheme': { actions: assign({ themeBeforeSave: null }) },
    'xstate.error.actor.saveTheme': { actions: ['undoChosenTheme', emit(notice('error', THEME_SAVE_FAILED))] },
  },
  initial: 'restoring',
  states: {
    restoring: {
      description: 'The tab starts: a session stored by an earlier visit is picked up, or none (never seen).',
      always: [{ guard: 'hasStoredSession', target: 'loggedIn' }, { target: 'loggedOut', actions: 'clearSession' }],
    },
    loggedOut: {
      description: 'No one is signed in: the sign-in page shows (with why the last try was refused, if it was).',
      on: {
        'session.login': {
          target: 'authenticating',
          actions: ['clearError', assign({ returnTo: ({ event }) => safeReturnPath(event.returnTo) })],
        },
        'session.dismissError': { actions: 'clearError' },
        'session.ssoCallback': [
          { guard: 'ssoCarriesTokens', target: 'ssoLoadingUser', actions: 'takeSsoTokens' },
          { actions: 'refuseSsoCallback' },
        ],
        'session.ssoStart': { target: 'ssoRedirecting', actions: 'clearError' },
      },
    },
    ssoRedirecting: {
      description: "Off to the provider: 'Sign in with Microsoft' reads 'Loading...', the form is disabled.",
      tags: ['busy'],
      on: { 'session.ssoAbandoned': 'loggedOut' },
    },
    ssoLoadingUser: {
      description: "The single sign-on callback's tokens are held; the person they belong to is being loaded.",
      tags: ['busy'],
      invoke: {
        id: 'loadUser',
        src: 'loadUser',
        onDone: {
          target: 'ssoWelcome',
          actions: [assign(({ event }) => ({ user: event.output, userStale: false })), emit(notice('success', SSO_SUCCESS))],
        },
        // Tokens that do not load a person are no session: back to the login screen with the spec's sentence.
        onError: { target: 'loggedOut', actions: ['clearSession', assign({ error: SSO_AUTH_FAILED })] },
      },
    },
    ssoWelcome: {
      description: "Signed in by single sign-on: 'Successfully logged in' shows for 2 s, then Home.",
      tags: ['authenticated'],
      after: { ssoRedirect: { target: 'loggedIn', actions: assign({ justSignedIn: true }) } },
      on: { 'session.logout': 'loggingOut' },
    },
    authenticating: {
      description: 'The email and password are being checked; the sign-in form waits, busy.',
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
              userStale: false,
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
      description: 'The person is signed in and uses the product.',
      tags: ['authenticated'],
      on: {
        'session.refresh': 'refreshing',
        'session.logout': 'loggingOut',
        'session.replaced': { actions: 'replaceSession' },
        // The latest choice wins: a save still under way is dropped for the new one.
        'session.themeChosen': {
          guard: 'isAnotherTheme',
          actions: [
            'showChosenTheme',
            stopChild('saveTheme'),
            spawnChild('saveTheme', { id: 'saveTheme', input: ({ event }) => ({ theme: (event as { theme: ThemeChoice }).theme }) }),
          ],
        },
        'session.landed': { actions: assign({ justSignedIn: false, returnTo: null }) },
        // Someone signed in here signs in by single sign-on (another account): that session replaces this one.
        'session.ssoCallback': { guard: 'ssoCarriesTokens', target: 'ssoLoadingUser', actions: 'takeSsoTokens' },
      },
      initial: 'checkingUser',
      states: {
        /** Transient: a restored session loads its user once (again after a refresh that interrupted it). */
        checkingUser: {
          description: 'A restored session decides whether to load its person again (never seen).',
          always: [{ guard: 'isUserStale', target: 'loadingUser' }, { target: 'ready' }],
        },
        loadingUser: {
          description: 'A restored session loads the person again, so role, package and department are current.',
          tags: ['loadingUser'],
          invoke: {
            id: 'loadUser',
            src: 'loadUser',
            onDone: { target: 'ready', actions: assign(({ event }) => ({ user: event.output, userStale: false })) },
            // The stored user stays; an expired session is the API client's to handle (it refreshes first).
            onError: { target: 'ready', actions: [assign({ userStale: false }), emit(notice('error', USER_FETCH_FAILED))] },
          },
        },
        ready: { description: 'The person, with role, package and department, is known.' },
      },
    },
    refreshing: {
      description: 'The tokens are being renewed; the person stays signed in meanwhile.',
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
      description: 'The session could not be renewed: Your session has expired. Please login again.',
      tags: ['expired'],
      entry: ['clearSession', emit({ type: 'session.expired' as const })],
      on: { 'session.logout': 'loggingOut' },
    },
    loggingOut: {
      description: 'The person is signing out.',
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
