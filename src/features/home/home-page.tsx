import { Navigate } from 'react-router-dom';
import { useSession } from '../../session/session';
import { AreaTitle } from '../../ui/area-title';

/** Role-dependent dashboard: superusers manage clients, admins see usage, plain users chat. */
export default function HomePage() {
  const role = useSession((c) => c.user?.role ?? null);
  if (role === 'user') return <Navigate to="/chat" replace />;
  return <AreaTitle title={role === 'superuser' ? 'Client Management' : 'Usage Dashboard'} />;
}
