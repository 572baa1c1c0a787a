import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { CheckCircle2 } from 'lucide-react';
import { SSO_PROCESSING, SSO_SUCCESS } from '../../../contract/sso-constants';
import { sessionActor } from '../../session/session';
import { Spinner } from '../../ui/spinner';

/**
 * /auth/sso, where single sign-on ends: the session machine takes the URL fragment's tokens, loads the person,
 * says 'Successfully logged in' and goes Home after 2 s; a fragment without tokens, or tokens that load nobody,
 * end on /login with the sentence as its banner. The fragment is taken off the address bar at once, so the
 * tokens stay out of the history and of anything copied from it.
 */
export default function SsoCallbackPage() {
  // Once per mount (StrictMode runs effects twice); the state re-renders the screen after the event.
  const sending = useRef(false);
  const [sent, setSent] = useState(false);
  const state = useSelector(sessionActor, (s) => (s.matches('ssoWelcome') ? 'welcome' : s.matches('loggedIn') ? 'home' : s.matches('loggedOut') ? 'refused' : 'processing'));

  useEffect(() => {
    if (sending.current) return;
    sending.current = true;
    const fragment = window.location.hash;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    sessionActor.send({ type: 'session.ssoCallback', fragment });
    setSent(true);
  }, []);

  if (sent && state === 'refused') return <Navigate to="/login" replace />;
  if (sent && state === 'home') return <Navigate to="/home" replace />;
  const welcome = state === 'welcome';
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-gradient-to-b from-primary/30 to-transparent p-4 text-center">
      <p className="text-2xl font-black tracking-tight">Tanya</p>
      <div role="status" className="flex items-center gap-3 text-lg text-gray-900 dark:text-gray-100">
        {welcome ? <CheckCircle2 aria-hidden className="size-6 text-green-700 dark:text-green-400" /> : <Spinner className="size-6" />}
        <h1 className="font-semibold">{welcome ? SSO_SUCCESS : SSO_PROCESSING}</h1>
      </div>
    </div>
  );
}
