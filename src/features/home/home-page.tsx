import { Navigate } from 'react-router-dom';
import { useSession } from '../../session/session';
import { AdminDashboard } from './admin-dashboard';

/** Home for admins (the usage dashboard) and plain users (sent to Chat); the superuser's is the Clients page (app/home-route.tsx). */
export default function HomePage() {
  const role = useSession((c) => c.user?.role ?? null);
  if (role === 'user') return <Navigate to="/chat" replace />;
  return role === 'admin' ? <AdminDashboard /> : null;
}
