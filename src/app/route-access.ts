import { SUPERUSERS_ONLY } from '../../contract/clients-constants';
import type { Role } from '../../contract/roles';
import type { SessionContext } from '../../machines/session.machine';
import { RETURN_PARAM } from '../../machines/return-path';

/** Who may open a route (spec route map). */
export type Access = 'public' | 'guestOnly' | 'login' | 'admin' | 'adminOrSuperuser' | 'superuser';

export interface Viewer {
  authenticated: boolean;
  role: Role | null;
  departmentId: string | null;
  /** Just signed in: the login screen hands over to Home rather than Chat. */
  justSignedIn?: boolean;
  /** Where this sign-in returns to instead of Home (a shared link opened while signed out). */
  returnTo?: string | null;
}

/** What the guards read of the session (the layout and the boot's prefetch read it alike). */
export function viewerOf(context: Pick<SessionContext, 'user' | 'justSignedIn' | 'returnTo'>, authenticated: boolean): Viewer {
  return {
    authenticated,
    role: context.user?.role ?? null,
    departmentId: context.user?.department_id ?? null,
    justSignedIn: context.justSignedIn,
    returnTo: context.returnTo,
  };
}

const PROFILE_EXEMPT = new Set(['/profile', '/logout']);

/**
 * Routes that sign-in returns to (spec route map: /share/{shared_id} is "login, flagged as shared"): a colleague's
 * link opened while signed out shows that conversation after sign-in, not Home.
 */
const RETURN_AFTER_SIGN_IN = /^\/share\/[^/]+\/?$/;

/** The sign-in screen, carrying the page to come back to when it is one of RETURN_AFTER_SIGN_IN. */
function signInFor(pathname: string): string {
  return RETURN_AFTER_SIGN_IN.test(pathname) ? `/login?${RETURN_PARAM}=${encodeURIComponent(pathname)}` : '/login';
}

/**
 * The route guards in the spec's order: 1. not signed in -> /login; 2. role-restricted routes send other roles
 * to /home; 3. a plain user without a department is held on /profile. Returns where to go, or null to stay.
 * This is navigation only: the server checks every call itself.
 */
/** What a signed-in person sent away is told (administration spec: the superuser's pages say why); null: nothing. */
export function redirectNotice(access: Access, viewer: Viewer): string | null {
  return viewer.authenticated && access === 'superuser' && viewer.role !== 'superuser' ? SUPERUSERS_ONLY : null;
}

export function redirectFor(access: Access, viewer: Viewer, pathname: string): string | null {
  const isProtected = access !== 'public' && access !== 'guestOnly';
  if (isProtected && !viewer.authenticated) return signInFor(pathname);
  if (viewer.authenticated) {
    if (access === 'admin' && viewer.role !== 'admin') return '/home';
    if (access === 'superuser' && viewer.role !== 'superuser') return '/home';
    if (access === 'adminOrSuperuser' && viewer.role !== 'admin' && viewer.role !== 'superuser') return '/home';
    if (viewer.role === 'user' && !viewer.departmentId && !PROFILE_EXEMPT.has(pathname)) return '/profile';
    if (access === 'guestOnly') {
      if (viewer.justSignedIn) return viewer.returnTo ?? '/home';
      return pathname === '/' ? '/home' : '/chat';
    }
  }
  return null;
}

/** Sidebar links by role (spec section 2). */
export const NAV_LINKS: ReadonlyArray<{ to: string; label: string; roles: readonly Role[] }> = [
  { to: '/home', label: 'Home', roles: ['superuser', 'admin'] },
  { to: '/chat', label: 'Chat', roles: ['user', 'admin'] },
  { to: '/users', label: 'Users', roles: ['admin'] },
  { to: '/clients', label: 'Clients', roles: ['superuser'] },
  { to: '/system-prompts', label: 'System Prompts', roles: ['superuser'] },
  { to: '/departments', label: 'Departments', roles: ['admin'] },
  { to: '/global-policy', label: 'Global Policy', roles: ['admin'] },
  { to: '/feedback-inbox', label: 'Feedback Inbox', roles: ['superuser', 'admin'] },
];

const SIDEBAR_HIDDEN = [/^\/login\/?$/, /^\/activate(\/.*)?$/, /^\/auth\/sso\/?$/];

export function sidebarVisible(viewer: Viewer, pathname: string): boolean {
  if (!viewer.authenticated || viewer.role === 'user') return false;
  return !SIDEBAR_HIDDEN.some((re) => re.test(pathname));
}
