import { LOGIN_FAILED } from '../../../machines/session.machine';
import { sessionActor } from '../../session/session';

export interface SignInValues {
  email: string;
  password: string;
}

/** The login form's check: both fields are required (spec section 1, Login). */
export function signInErrors({ email, password }: SignInValues) {
  return {
    ...(email.trim() ? {} : { email: 'Email is required' }),
    ...(password ? {} : { password: 'Password is required' }),
  };
}

/**
 * The login form's submission: the session machine signs in (it owns the tokens, the return path and the
 * sentence of a refusal); this settles when it has, so the form machine knows the outcome. The session keeps the
 * return path only when it is one of this app's (safeReturnPath).
 */
export function signIn({ email, password }: SignInValues, returnTo: string | null): Promise<void> {
  sessionActor.send({ type: 'session.login', email: email.trim(), password, returnTo });
  return new Promise((resolve, reject) => {
    const settle = () => {
      const s = sessionActor.getSnapshot();
      if (s.matches('authenticating')) return false;
      if (s.hasTag('authenticated')) resolve();
      else reject(new Error(s.context.error ?? LOGIN_FAILED));
      return true;
    };
    // Not taken (a session already there): settled at once instead of waiting for a change that never comes.
    if (settle()) return;
    const sub = sessionActor.subscribe(() => {
      if (settle()) sub.unsubscribe();
    });
  });
}
