import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { sessionActor } from '../session/session';

/**
 * App-wide reaction to the session: an expired session goes to /logout (its toast is shown by the session module).
 * Read as a state, not an event, so an expiry that happened before this mounted is still followed.
 */
export function useSessionEffects() {
  const navigate = useNavigate();
  const expired = useSelector(sessionActor, (s) => s.matches('expired'));
  useEffect(() => {
    if (expired) navigate('/logout', { replace: true });
  }, [expired, navigate]);
}
