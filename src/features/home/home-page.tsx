import { Navigate } from 'react-router-dom';
import { useSession } from '../../session/session';
import { AreaTitle } from '../../ui/area-title';
import { AdminDashboard } from './admin-dashboard';

/** Role-dependent dashboard: superusers manage clients, admins see usage, plain users chat. */
export default function HomePage() {
  const role = useSession((c) => c.user?.role ?? null);
  if (role === 'user') return <Navigate to="/chat" replace />;
  if (role === 'superuser') return <AreaTitle title="Client Management" />;
  return role === 'admin' ? <AdminDashboard /> : null;
}
