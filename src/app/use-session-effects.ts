import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../ui/toast';
import { sessionActor } from '../session/session';

export const SESSION_EXPIRED = 'Your session has expired. Please login again.';

/** App-wide reactions to the session: expiry shows the spec's toast and goes to /logout; its notices are toasts. */
export function useSessionEffects() {
  const navigate = useNavigate();
  useEffect(() => {
    const sub = sessionActor.on('session.expired', () => {
      toast.error(SESSION_EXPIRED);
      navigate('/logout', { replace: true });
    });
    return () => sub.unsubscribe();
  }, [navigate]);

  useEffect(() => {
    const sub = sessionActor.on('notice.show', (e) => toast[e.tone](e.text));
    return () => sub.unsubscribe();
  }, []);
}
