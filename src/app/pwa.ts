import type { Actor } from 'xstate';
import type { sessionMachine } from '../../machines/session.machine';
import { toast } from '../ui/toast';
import { routerBasename } from './router-basename';

/**
 * The tab's session, handed in by main.tsx: imported here, the session module was pulled into this lazily loaded
 * chunk's graph and the built app froze after sign-in.
 */
type Session = Pick<Actor<typeof sessionMachine>, 'getSnapshot' | 'subscribe'>;

export const OFFLINE_READY = 'Tanya is installed and ready to work offline.';

/** Set once the offline-ready notice has been shown in this browser: it is news once, not on every later load. */
export const OFFLINE_READY_SHOWN_KEY = 'tanya.offlineReadyShown';

/** Screens before or outside the app itself (sign-in, links from e-mails, the landing page): no notice there. */
const OUTSIDE_APP = [/^\/$/, /^\/login\/?$/, /^\/logout\/?$/, /^\/activate(\/|$)/, /^\/reset-password(\/|$)/, /^\/auth\/sso\/?$/];

function appPath(): string {
  const { pathname } = window.location;
  const base = routerBasename === '/' ? '' : routerBasename;
  return base && pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname;
}

function alreadyShown(): boolean {
  try {
    return localStorage.getItem(OFFLINE_READY_SHOWN_KEY) !== null;
  } catch {
    return false;
  }
}

function remember() {
  try {
    localStorage.setItem(OFFLINE_READY_SHOWN_KEY, new Date().toISOString());
  } catch {
    // Storage refused (a private window's quota): the notice may then come again on a later install.
  }
}

/**
 * Shows the offline-ready notice once per browser, and only to a signed-in person on an app screen: a worker
 * installed while the sign-in form shows keeps its news until the person has landed (the session's `justSignedIn`
 * ends when the app has arrived on its first screen).
 */
/** One watch per page, whichever of the worker's callbacks starts it. */
let watching = false;

export function showOfflineReadyOnce(sessionActor: Session): void {
  if (watching || alreadyShown()) return;
  watching = true;
  let done = false;
  const check = () => {
    const session = sessionActor.getSnapshot();
    if (done || !session.hasTag('authenticated') || session.context.justSignedIn) return;
    if (OUTSIDE_APP.some((re) => re.test(appPath()))) return;
    done = true;
    subscription.unsubscribe();
    remember();
    toast.info(OFFLINE_READY);
  };
  const subscription = sessionActor.subscribe(check);
  check();
}

/**
 * Registers the root-scoped service worker (production builds only). With autoUpdate, an update or a worker
 * activated from another tab reloads the page; the first install raises the offline-ready notice (see
 * `showOfflineReadyOnce`). main.tsx loads this module only once the first screen has settled (src/lib/after-load.ts).
 */
export async function registerServiceWorker(session: Session) {
  const { registerSW } = await import('virtual:pwa-register');
  registerSW({
    immediate: true,
    onOfflineReady: () => showOfflineReadyOnce(session),
    // A worker installed on an earlier load whose notice was never seen (that page was left before anyone signed
    // in): said now, once the person is in the app.
    onRegisteredSW: (_url, registration) => {
      if (registration?.active) showOfflineReadyOnce(session);
    },
  });
}
