import { openSecret, sealSecret, SecretBoxError } from '../../lib/secret-box';
import type { SsoProvider } from '../../../contract/sso-constants';

// What the callback must know of the sign-in it ends, kept in the browser (a sealed, short-lived, HttpOnly cookie)
// rather than in one server's memory: any instance behind the proxy can end it.

export const SSO_COOKIE = 'tanya_sso';
export const SSO_STATE_TTL_MS = 10 * 60_000;
const BOUND_TO = 'sso-state';

export interface SsoState {
  provider: SsoProvider;
  /** Our client organisation, and the address its people use (where the browser goes back to). */
  clientId: string;
  origin: string;
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  expiresAt: number;
}

export function sealState(key: Buffer, state: SsoState): string {
  return sealSecret(key, JSON.stringify(state), BOUND_TO);
}

/** The state if the cookie is ours, whole and not expired; undefined otherwise. */
export function openState(key: Buffer | undefined, sealed: string | undefined, now = Date.now()): SsoState | undefined {
  if (!key || !sealed) return undefined;
  try {
    const state = JSON.parse(openSecret(key, sealed, BOUND_TO)) as SsoState;
    return state.expiresAt > now ? state : undefined;
  } catch (err) {
    if (err instanceof SecretBoxError || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** One cookie's value from a Cookie header (the app has no cookie plugin: this is its only cookie). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Set-Cookie for the state, readable only by the callback path, gone after 10 minutes. */
export function stateCookie(value: string, path: string, secure: boolean): string {
  return `${SSO_COOKIE}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${SSO_STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedStateCookie(path: string, secure: boolean): string {
  return `${SSO_COOKIE}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
