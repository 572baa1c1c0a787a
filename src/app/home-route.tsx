import { lazy, Suspense } from 'react';
import { useSession } from '../session/session';
import { PageSpinner } from '../ui/page-spinner';

// /home by role (administration spec route map): the superuser's is the Clients page, everyone else's the home area
// (the admin's dashboard; a plain user goes on to Chat). Each loads only for whom it is.
const ClientsPage = lazy(() => import('../features/clients/clients-page'));
const HomePage = lazy(() => import('../features/home/home-page'));

export default function HomeRoute() {
  const role = useSession((c) => c.user?.role ?? null);
  return <Suspense fallback={<PageSpinner />}>{role === 'superuser' ? <ClientsPage /> : <HomePage />}</Suspense>;
}
