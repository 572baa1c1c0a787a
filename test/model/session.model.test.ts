import { expect } from './support/expect';
import { fromPromise } from 'xstate';
import { sessionMachine, type SessionContext, type SessionEvent } from '../../machines/session.machine';
import type { LoginResponse, Tokens } from '../../contract/auth';
import type { User } from '../../contract/user';
import type { ThemeChoice } from '../../contract/theme';
import { runModelTest } from './support/run-model';
import { SSO_AUTH_FAILED, SSO_INVALID_CALLBACK, SSO_NO_ACCESS_TOKEN, SSO_SUCCESS } from '../../contract/sso-constants';
import type { Notice } from '../../machines/notice';

/** The SSO callback's fragments: tokens, none at all, and parameters without the access token. */
const SSO_OK = '#access_token=sso-access&refresh_token=sso-refresh';
const SSO_EMPTY = '';
const SSO_NO_TOKEN = '#refresh_token=sso-refresh&token_type=bearer';
const SSO_AFTER = 'xstate.after.ssoRedirect.session.ssoWelcome';
const notices: Notice[] = [];

const user: User = {
  id: 'u1', name: 'Nur User', email: 'user@demo.local', role: 'user', status: 'active', verified: true,
  package_name: 'premium', image_url: null, department_id: 'd1', unit_id: 'n1', client_id: 'c1', features: ['browsing', 'image_generation', 'reasoning'],
};
const login: LoginResponse = { access_token: 'access-1', refresh_token: 'refresh-1', user };
const rotated: Tokens = { access_token: 'access-2', refresh_token: 'refresh-2' };
const replacedTokens: Tokens = { access_token: 'access-3', refresh_token: 'refresh-3' };
const renamed: User = { ...user, name: 'Nur Renamed' };

const pending = <T>() => new Promise<T>(() => {});
const logoutInputs: Array<string | null> = [];
const emitted: string[] = [];
const userLoads = { count: 0 };
const themeSaves: ThemeChoice[] = [];
/** The context before the step being checked: a failed theme save must go back to the theme of then. */
let before: SessionContext | null = null;

const testMachine = () =>
  sessionMachine.provide({
    actors: {
      login: fromPromise<LoginResponse, { email: string; password: string }>(() => pending()),
      refresh: fromPromise<Tokens, { refreshToken: string | null }>(() => pending()),
      logout: fromPromise<void, { refreshToken: string | null }>(({ input }) => {
        logoutInputs.push(input.refreshToken);
        return pending();
      }),
      loadUser: fromPromise<User, void>(() => {
        userLoads.count += 1;
        return pending();
      }),
      saveTheme: fromPromise<User, { theme: ThemeChoice }>(({ input }) => {
        themeSaves.push(input.theme);
        return pending();
      }),
    },
    actions: {},
  });

/** 'loggedIn.ready' for { loggedIn: 'ready' }. */
const valueName = (value: unknown): string =>
  typeof value === 'string' ? value : Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}.${valueName(v)}`)[0]!;

const eventsFor = (value: string): SessionEvent[] => {
  switch (value) {
    case 'loggedOut':
      return [
        { type: 'session.login', email: 'user@demo.local', password: 'secret' },
        // Issue 28: a shared link opened while signed out; and a forged login URL that must never be followed.
        { type: 'session.login', email: 'user@demo.local', password: 'secret', returnTo: '/share/abc' },
        { type: 'session.login', email: 'user@demo.local', password: 'secret', returnTo: 'https://evil.example/share/abc' },
        { type: 'session.dismissError' },
        { type: 'session.ssoCallback', fragment: SSO_OK },
        { type: 'session.ssoCallback', fragment: SSO_EMPTY },
        { type: 'session.ssoCallback', fragment: SSO_NO_TOKEN },
        { type: 'session.ssoStart' },
      ];
    case 'ssoRedirecting':
      return [{ type: 'session.ssoAbandoned' }, { type: 'session.login', email: 'user@demo.local', password: 'secret' }];
    case 'ssoLoadingUser':
      return [
        { type: 'xstate.done.actor.loadUser', output: user } as never,
        { type: 'xstate.error.actor.loadUser', error: new Error('401') } as never,
        { type: 'session.ssoCallback', fragment: SSO_OK },
      ];
    case 'ssoWelcome':
      return [{ type: SSO_AFTER } as never, { type: 'session.logout' }, { type: 'session.refresh' }];
    case 'authenticating':
      return [
        { type: 'xstate.done.actor.login', output: login } as never,
        { type: 'xstate.error.actor.login', error: new Error('Incorrect email or password') } as never,
      ];
    case 'loggedIn.loadingUser':
      return [
        { type: 'xstate.done.actor.loadUser', output: renamed } as never,
        { type: 'xstate.error.actor.loadUser', error: new Error('Network Error') } as never,
        { type: 'session.refresh' },
        { type: 'session.logout' },
      ];
    case 'loggedIn.ready':
      return [
        { type: 'session.refresh' },
        { type: 'session.logout' },
        { type: 'session.replaced', user: renamed, tokens: replacedTokens },
        { type: 'session.landed' },
        { type: 'session.ssoCallback', fragment: SSO_OK },
        { type: 'session.ssoCallback', fragment: SSO_NO_TOKEN },
        // 'system' is the fixture's theme at first (none stored): choosing it again changes nothing.
        { type: 'session.themeChosen', theme: 'dark' },
        { type: 'session.themeChosen', theme: 'system' },
        { type: 'xstate.done.actor.saveTheme', output: { ...user, theme: 'dark' } } as never,
        { type: 'xstate.error.actor.saveTheme', error: new Error('offline') } as never,
      ];
    case 'refreshing':
      return [
        { type: 'xstate.done.actor.refresh', output: rotated } as never,
        { type: 'xstate.error.actor.refresh', error: new Error('401') } as never,
        { type: 'session.logout' },
      ];
    case 'expired':
      return [{ type: 'session.logout' }];
    case 'loggingOut':
      return [{ type: 'xstate.done.actor.logout', output: undefined } as never, { type: 'xstate.error.actor.logout', error: new Error('offline') } as never];
    default:
      return [];
  }
};

runModelTest({
  name: 'session',
  machine: sessionMachine,
  testMachine,
  onActor: (actor) => {
    emitted.length = 0;
    userLoads.count = 0;
    themeSaves.length = 0;
    before = null;
    notices.length = 0;
    actor.on('*', (e) => emitted.push(e.type));
    actor.on('notice.show', (n) => notices.push(n));
  },
  inputs: [{}, { token: 'stored-access', refreshToken: 'stored-refresh', user }, { token: 'stored-access', refreshToken: null, user }],
  events: (s) => eventsFor(valueName(s.value)),
  key: (s) => JSON.stringify([s.value, s.context.userStale, s.context.returnTo]),
  checks: {
    loggedOut: (s, e) => {
      expect(s.context.justSignedIn).toBe(false);
      expect(s.context.token).toBeNull();
      expect(s.context.refreshToken).toBeNull();
      expect(s.context.user).toBeNull();
      expect(s.hasTag('authenticated')).toBe(false);
      if (e?.type === 'xstate.error.actor.login') expect(s.context.error).toBe('Incorrect email or password');
      if (e?.type === 'session.dismissError' || e === null) expect(s.context.error).toBeNull();
      // The callback's problems go to the login screen as its banner (spec section 8).
      if (e?.type === 'session.ssoCallback') {
        const fragment = (e as unknown as { fragment: string }).fragment;
        expect(s.context.error).toBe(fragment === SSO_EMPTY ? SSO_INVALID_CALLBACK : SSO_NO_ACCESS_TOKEN);
      }
      if (e?.type === 'xstate.error.actor.loadUser') expect(s.context.error).toBe(SSO_AUTH_FAILED);
    },
    ssoRedirecting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context).toMatchObject({ token: null, user: null, error: null });
      // The form is disabled meanwhile: no password sign-in can start.
      expect(s.can({ type: 'session.login', email: 'x@y.z', password: 'p' })).toBe(false);
    },
    ssoLoadingUser: (s) => {
      // The tokens are held (the bearer header reads them) while the person is loaded.
      expect(s.context).toMatchObject({ token: 'sso-access', refreshToken: 'sso-refresh', user: null, error: null });
      expect(s.hasTag('busy')).toBe(true);
      expect(s.hasTag('authenticated')).toBe(false);
      expect(userLoads.count).toBeGreaterThan(0);
    },
    ssoWelcome: (s) => {
      expect(s.hasTag('authenticated')).toBe(true);
      expect(s.context).toMatchObject({ token: 'sso-access', refreshToken: 'sso-refresh', user, justSignedIn: false });
      expect(notices.at(-1)).toEqual({ type: 'notice.show', tone: 'success', text: SSO_SUCCESS });
    },
    authenticating: (s, e) => {
      expect(s.hasTag('busy')).toBe(true);
      // Only a path of this app is kept to return to; anything else is dropped (no open redirect).
      if (e?.type === 'session.login') {
        const asked = (e as { returnTo?: string }).returnTo;
        expect(s.context.returnTo).toBe(asked === '/share/abc' ? '/share/abc' : null);
      }
      expect(s.context.error).toBeNull();
      expect(s.can({ type: 'session.login', email: 'x@y.z', password: 'p' })).toBe(false);
    },
    loggedIn: (s, e) => {
      expect(s.hasTag('authenticated')).toBe(true);
      expect(s.context.token).toBeTruthy();
      expect(s.context.refreshToken).toBeTruthy();
      expect(s.context.user).not.toBeNull();
      if (e?.type === 'xstate.done.actor.login') {
        expect(s.context).toMatchObject({ token: 'access-1', refreshToken: 'refresh-1', user, justSignedIn: true });
      }
      if (e?.type === 'xstate.done.actor.refresh') expect(s.context).toMatchObject({ token: 'access-2', refreshToken: 'refresh-2' });
      if (e === null) expect(s.context.justSignedIn).toBe(false);
      // Two seconds after 'Successfully logged in', Home (spec: SSO redirect delay).
      if (e?.type === SSO_AFTER) expect(s.context).toMatchObject({ token: 'sso-access', user, justSignedIn: true });
      if (e?.type === 'session.landed') expect(s.context).toMatchObject({ justSignedIn: false, returnTo: null });
      if (s.context.justSignedIn) expect([null, '/share/abc']).toContain(s.context.returnTo);
      // A restored user is loaded again once; a sign-in's user is fresh.
      expect(s.hasTag('loadingUser')).toBe(s.matches({ loggedIn: 'loadingUser' }));
      if (s.matches({ loggedIn: 'loadingUser' })) expect(s.context.userStale).toBe(true);
      if (e?.type === 'xstate.done.actor.login') expect(s.matches({ loggedIn: 'ready' })).toBe(true);
      if (s.matches({ loggedIn: 'loadingUser' })) expect(userLoads.count).toBeGreaterThan(0);
      if (e?.type === 'xstate.done.actor.loadUser') expect(s.context).toMatchObject({ user: renamed, userStale: false });
      if (e?.type === 'xstate.error.actor.loadUser') {
        expect(s.context).toMatchObject({ user, userStale: false });
        expect(emitted.at(-1)).toBe('notice.show');
      }
      if (e?.type === 'session.replaced') expect(s.context).toMatchObject({ token: 'access-3', refreshToken: 'refresh-3', user: renamed });
      // A theme choice shows at once and is saved; a failed save goes back to the theme the server had, and says so.
      if (e?.type === 'session.themeChosen' && before) {
        const chosen = (e as unknown as { theme: ThemeChoice }).theme;
        expect(s.context.user?.theme).toBe(chosen);
        if ((before.user?.theme ?? 'system') !== chosen) {
          expect(themeSaves.at(-1)).toBe(chosen);
          expect(s.context.themeBeforeSave).toBe(before.themeBeforeSave ?? before.user?.theme ?? 'system');
        }
      }
      if (e?.type === 'xstate.done.actor.saveTheme') expect(s.context.themeBeforeSave).toBeNull();
      if (e?.type === 'xstate.error.actor.saveTheme' && before) {
        expect(s.context.themeBeforeSave).toBeNull();
        expect(s.context.user?.theme).toBe(before.themeBeforeSave ?? before.user?.theme);
        expect(emitted.at(-1)).toBe('notice.show');
      }
      before = s.context;
    },
    refreshing: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.refreshToken).toBeTruthy();
      // A second 401 while refreshing must not start a second refresh (single flight).
      expect(s.can({ type: 'session.refresh' })).toBe(false);
    },
    expired: (s) => {
      expect(s.hasTag('expired')).toBe(true);
      expect(s.context.token).toBeNull();
      expect(s.context.user).toBeNull();
      expect(emitted.at(-1)).toBe('session.expired');
    },
    loggingOut: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      // The logout call revokes the refresh token the session held (none after expiry).
      expect(logoutInputs.at(-1)).toBe(s.context.refreshToken);
    },
  },
});

