import { createActor, fromPromise, waitFor } from 'xstate';
import { useSelector } from '@xstate/react';
import { sessionMachine, type SessionContext } from '../../machines/session.machine';
import type { LoginRequest } from '../../contract/auth';
import { errorText } from '../api/api-error';
import { login, logout, refreshTokens } from '../api/auth';
import { fetchMe } from '../api/users';
import { savePreferences } from '../api/preferences';
import { applyTheme } from '../lib/color-scheme';
import type { ThemeChoice } from '../../contract/theme';
import { connectSession } from '../api/http';
import { shallowEqual } from '../lib/shallow-equal';
import { toast } from '../ui/toast';
import { showNoticeToasts } from '../ui/use-notice-toasts';
import { loadSession, saveSession, STORAGE_KEYS } from './session-storage';

export const SESSION_EXPIRED = 'Your session has expired. Please login again.';

const machine = sessionMachine.provide({
  actors: {
    login: fromPromise(async ({ input }: { input: LoginRequest }) => {
      try {
        return await login(input);
      } catch (error) {
        throw new Error(errorText(error, 'Login failed'));
      }
    }),
    refresh: fromPromise(async ({ input }: { input: { refreshToken: string | null } }) => {
      if (!input.refreshToken) throw new Error('No refresh token');
      return refreshTokens(input.refreshToken);
    }),
    logout: fromPromise(async ({ input }: { input: { refreshToken: string | null } }) => logout(input.refreshToken)),
    // A restored session reloads the person once, so role, package, features and department are current.
    loadUser: fromPromise(() => fetchMe()),
    saveTheme: fromPromise(({ input }: { input: { theme: ThemeChoice } }) => savePreferences({ theme: input.theme })),
  },
});

/** The one session of this tab. Its context is mirrored into localStorage after every change. */
export const sessionActor = createActor(machine, { input: loadSession() });

sessionActor.subscribe((snapshot) => saveSession(snapshot.context));
// The person's theme, whenever it arrives or changes (sign-in, the restored user reloaded, a choice, a failed
// save undone); it stays as it is once signed out. A user stored before themes existed has none: left alone.
let shownTheme: ThemeChoice | undefined;
sessionActor.subscribe(({ context }) => {
  const theme = context.user?.theme;
  if (theme && theme !== shownTheme) {
    shownTheme = theme;
    applyTheme(theme);
  }
});
// Listened to here, before the actor starts: a restored session may fail to load its user or expire before any
// view has mounted, and those toasts must not be lost (the toast queue keeps them until the stack shows).
showNoticeToasts(sessionActor);
sessionActor.on('session.expired', () => toast.error(SESSION_EXPIRED));

connectSession({
  getToken: () => sessionActor.getSnapshot().context.token,
  refresh: async () => {
    const before = sessionActor.getSnapshot();
    if (!before.matches('refreshing')) {
      if (!before.can({ type: 'session.refresh' })) return false;
      sessionActor.send({ type: 'session.refresh' });
    }
    const after = await waitFor(sessionActor, (s) => !s.matches('refreshing'));
    return after.matches('loggedIn');
  },
});

// Another tab that refreshed or logged out changes the shared storage: follow it so tokens never fork.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.refreshToken) return;
    const stored = loadSession();
    const current = sessionActor.getSnapshot();
    if (!stored.refreshToken && current.matches('loggedIn')) sessionActor.send({ type: 'session.logout' });
    else if (stored.refreshToken && stored.token && stored.user && current.matches('loggedIn')) {
      sessionActor.send({
        type: 'session.replaced',
        user: stored.user,
        tokens: { access_token: stored.token, refresh_token: stored.refreshToken },
      });
    }
  });
}

// Back from the provider's page without finishing: the browser may show the login page from its cache, still
// 'Loading...'; it is the sign-in page again.
if (typeof window !== 'undefined') {
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) sessionActor.send({ type: 'session.ssoAbandoned' });
  });
}

sessionActor.start();

/** A narrow view of the session; objects are compared shallowly so views re-render only on real change. */
export function useSession<T>(select: (context: SessionContext, authenticated: boolean) => T): T {
  return useSelector(sessionActor, (s) => select(s.context, s.hasTag('authenticated')), shallowEqual);
}

export const useIsBusy = () => useSelector(sessionActor, (s) => s.hasTag('busy'));
