import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { subscribeFirstToast, toast } from '../ui/toast';
import { PageSpinner } from '../ui/page-spinner';
import { useDocumentTitle } from '../ui/page-title';
import { routeTitle } from './route-titles';
import { focusSkipTarget } from '../lib/skip-target';
import { redirectFor, redirectNotice, sidebarVisible, viewerOf, type Viewer } from './route-access';
import type { RouteHandle } from './routes';
import { sessionActor, useSession } from '../session/session';
import { useSessionEffects } from './use-session-effects';
import { useThemeColor } from './use-theme-color';

// The sidebar serves admins and superusers only: its code stays out of the login route.
const Sidebar = lazy(() => import('./sidebar'));
const ToastRegion = lazy(() => import('../ui/toast-region'));

/** Mounts the toast stack once the first toast is raised (its code is not needed before). */
function LazyToasts() {
  const [needed, setNeeded] = useState(false);
  useEffect(() => subscribeFirstToast(() => setNeeded(true)), []);
  return needed ? (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  ) : null;
}

/** Goes to `to`, saying `notice` first when there is one to say. */
function Redirect({ to, notice }: { to: string; notice: string | null }) {
  useEffect(() => {
    if (notice) toast.error(notice);
  }, [notice]);
  return <Navigate to={to} replace />;
}

export function AppLayout() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const handle = (matches.at(-1)?.handle ?? { access: 'public' }) as RouteHandle;
  const viewer = useSession<Viewer>(viewerOf);
  useSessionEffects();
  useThemeColor(handle.name);
  useDocumentTitle(routeTitle(pathname));

  const redirect = redirectFor(handle.access, viewer, pathname);
  useEffect(() => {
    if (viewer.justSignedIn && handle.access !== 'guestOnly') sessionActor.send({ type: 'session.landed' });
  }, [viewer.justSignedIn, handle.access]);
  if (redirect && redirect !== pathname) return <Redirect to={redirect} notice={redirectNotice(handle.access, viewer)} />;

  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <a
        href="#main"
        onClick={(e) => {
          if (focusSkipTarget()) e.preventDefault();
        }}
        className="sr-only z-50 rounded bg-white px-3 py-2 text-gray-900 focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      {sidebarVisible(viewer, pathname) && (
        <Suspense fallback={<div className="hidden w-64 md:block" />}>
          <Sidebar />
        </Suspense>
      )}
      <main id="main" className="min-w-0 flex-1">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <LazyToasts />
    </div>
  );
}
