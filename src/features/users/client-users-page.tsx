import { useParams } from 'react-router-dom';
import { UsersScreen } from './users-page';

/** /clients/{clientId}/users ('Client Users Management'): the superuser's Users page of one client. */
export default function ClientUsersPage() {
  const { clientId } = useParams();
  return <UsersScreen scopedClientId={clientId} />;
}
