import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { fetchMe } from '../api/users';
import { toast } from '../ui/toast';
import { sessionActor } from '../session/session';

export const SESSION_EXPIRED = 'Your session has expired. Please login again.';

/** App-wide reactions to the session: expiry shows the spec's toast and goes to /logout. */
export function useSessionEffects() {
  const navigate = useNavigate();
  useEffect(() => {
    const sub = sessionActor.on('session.expired', () => {
      toast.error(SESSION_EXPIRED);
      navigate('/logout', { replace: true });
    });
    return () => sub.unsubscribe();
  }, [navigate]);

  // A restored session reloads the person once, so role, package and department are current.
  useEffect(() => {
    if (!sessionActor.getSnapshot().matches('loggedIn')) return;
    fetchMe()
      .then((user) => sessionActor.send({ type: 'session.userLoaded', user }))
      .catch(() => {
        // Offline or expired: the API client and the session machine already handle both.
      });
  }, []);
}
