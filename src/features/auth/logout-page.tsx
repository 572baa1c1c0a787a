import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { waitFor } from 'xstate';
import { sessionActor } from '../../session/session';
import { PageSpinner } from '../../ui/page-spinner';

/** /logout: revoke the session on the server, forget it here, then go to /login. */
export default function LogoutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    sessionActor.send({ type: 'session.logout' });
    waitFor(sessionActor, (s) => s.matches('loggedOut')).then(() => {
      if (!cancelled) navigate('/login', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [navigate]);
  return <PageSpinner />;
}
