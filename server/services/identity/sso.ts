import type { FastifyBaseLogger } from 'fastify';
import { API_PREFIX, paths } from '../../../contract/api-paths';
import { SSO_PROVIDER_NAMES, ssoErrors, SUBSCRIPTION_EXPIRED_CODE, type SsoErrorCode, type SsoProvider } from '../../../contract/sso-constants';
import type { AppContext } from '../../context';
import { findClientsByOrigin, urlOrigin } from '../../db/repositories/clients-by-origin';
import { findUserByEmail, normaliseEmail } from '../../db/repositories/users';
import { DomainError } from '../errors';
import { oauthCredentials } from './oauth-configs';
import { issueSession } from './session';
import { exchangeCode, providerConfiguration, startAuthorization } from './sso-provider';
import { openState, sealState, SSO_STATE_TTL_MS, type SsoState } from './sso-state';

// Single sign-on with Microsoft or Google for a client organisation, found by the address its people use (its
// stored origin URL), with that organisation's OAuth configuration. No account is created: the provider's verified
// e-mail must be an active person of that organisation. The session starts through the one session service.

export const SSO_CALLBACK_PATH = `${API_PREFIX}${paths.ssoCallback}`;

/** Where the browser goes next, and the state cookie to set (start) or clear (callback). */
export interface SsoStep {
  location: string;
  cookie?: string;
}

class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode | typeof SUBSCRIPTION_EXPIRED_CODE,
    readonly text: string,
    readonly origin: string | undefined,
  ) {
    super(text);
  }
}

const name = (provider: SsoProvider) => SSO_PROVIDER_NAMES[provider];

/** The login screen of `origin` with the failure; `origin` must be one of ours (no open redirect). */
function loginWithError(ctx: AppContext, failure: SsoFailure): string {
  const origin = failure.origin ?? urlOrigin(ctx.config.publicUrl) ?? '';
  const query = new URLSearchParams({ error: failure.code, error_description: failure.text });
  return `${origin}/login?${query.toString()}`;
}

function issuerOf(ctx: AppContext, provider: SsoProvider, tenantId: string | null): string {
  return provider === 'microsoft' ? ctx.config.sso.microsoftIssuer.replaceAll('{tenant}', tenantId ?? '') : ctx.config.sso.googleIssuer;
}

async function credentialsFor(ctx: AppContext, provider: SsoProvider, clientId: string, origin: string) {
  const credentials = await oauthCredentials(ctx.db, ctx.config.oauthSecretKey, clientId, provider);
  // Microsoft's issuer is per tenant: without one, which organisation's accounts count is not known.
  if (!credentials || (provider === 'microsoft' && !credentials.tenantId)) {
    throw new SsoFailure('sso_not_configured', ssoErrors.sso_not_configured(name(provider)), origin);
  }
  return { ...credentials, issuer: issuerOf(ctx, provider, credentials.tenantId) };
}

/**
 * GET /auth/social/{provider}/?origin=: the organisation whose origin URL has this origin, its configuration for
 * the provider, then off to the provider with a fresh state, nonce and PKCE verifier sealed in a cookie.
 */
export async function startSso(ctx: AppContext, provider: SsoProvider, requested: string | undefined, log: FastifyBaseLogger): Promise<SsoStep> {
  const origin = requested === undefined ? undefined : urlOrigin(requested);
  try {
    const clients = origin ? await findClientsByOrigin(ctx.db, origin) : [];
    if (!origin || clients.length !== 1) throw new SsoFailure('unknown_origin', ssoErrors.unknown_origin(), undefined);
    const client = clients[0];
    const credentials = await credentialsFor(ctx, provider, client.id, origin);
    const redirectUri = `${origin}${SSO_CALLBACK_PATH}`;
    let start;
    try {
      start = await startAuthorization(await providerConfiguration(credentials), redirectUri);
    } catch (err) {
      log.warn({ err: String(err), client_id: client.id, provider }, 'single sign-on: the provider could not be reached');
      throw new SsoFailure('sso_unavailable', ssoErrors.sso_unavailable(name(provider)), origin);
    }
    const state: SsoState = {
      provider,
      clientId: client.id,
      origin,
      redirectUri,
      state: start.state,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      expiresAt: Date.now() + SSO_STATE_TTL_MS,
    };
    // credentialsFor found a sealed secret, so the key is there.
    return { location: start.url, cookie: sealState(ctx.config.oauthSecretKey!, state) };
  } catch (err) {
    if (!(err instanceof SsoFailure)) throw err;
    log.info({ code: err.code, provider }, 'single sign-on refused at the start');
    return { location: loginWithError(ctx, err) };
  }
}

/** The e-mail the provider vouches for: Google's only when verified; Microsoft's work accounts are the tenant's own. */
function emailOf(provider: SsoProvider, claims: Record<string, unknown>): string | undefined {
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  if (provider === 'google') return claims.email_verified === true ? email : undefined;
  const username = typeof claims.preferred_username === 'string' && claims.preferred_username.includes('@') ? claims.preferred_username : undefined;
  return email ?? username;
}

/**
 * GET /auth/social/callback: the provider's answer for the sign-in in the state cookie. Success: a session, and
 * `<origin>/auth/sso#access_token=...&refresh_token=...` (a fragment never reaches a server's logs). Any failure:
 * `<origin>/login?error=...&error_description=...`.
 */
export async function finishSso(ctx: AppContext, sealed: string | undefined, callbackQuery: string, log: FastifyBaseLogger): Promise<SsoStep> {
  const state = openState(ctx.config.oauthSecretKey, sealed);
  try {
    if (!state) throw new SsoFailure('invalid_state', ssoErrors.invalid_state(), undefined);
    const provider = state.provider;
    const credentials = await credentialsFor(ctx, provider, state.clientId, state.origin);
    let exchanged;
    try {
      const config = await providerConfiguration(credentials);
      exchanged = await exchangeCode(config, new URL(`${state.redirectUri}?${callbackQuery}`), state);
    } catch (err) {
      log.warn({ err: String(err), client_id: state.clientId, provider }, 'single sign-on: the provider could not be reached');
      throw new SsoFailure('sso_unavailable', ssoErrors.sso_unavailable(name(provider)), state.origin);
    }
    if (!exchanged.ok) {
      log.info({ client_id: state.clientId, provider, reason: exchanged.reason, detail: 'detail' in exchanged ? exchanged.detail : exchanged.error }, 'single sign-on refused');
      if (exchanged.reason === 'provider') {
        throw new SsoFailure('provider_error', ssoErrors.provider_error(name(provider), exchanged.description ?? exchanged.error), state.origin);
      }
      if (exchanged.reason === 'unreachable') throw new SsoFailure('sso_unavailable', ssoErrors.sso_unavailable(name(provider)), state.origin);
      throw new SsoFailure('invalid_state', ssoErrors.invalid_state(), state.origin);
    }
    const claims = exchanged.claims;
    if (provider === 'microsoft' && claims.tid !== credentials.tenantId) {
      throw new SsoFailure('wrong_tenant', ssoErrors.wrong_tenant(name(provider)), state.origin);
    }
    const email = emailOf(provider, claims);
    if (!email) throw new SsoFailure('no_email', ssoErrors.no_email(name(provider)), state.origin);
    const user = await findUserByEmail(ctx.db, normaliseEmail(email));
    if (!user || user.client_id !== state.clientId) throw new SsoFailure('unknown_user', ssoErrors.unknown_user(name(provider)), state.origin);
    if (user.status !== 'active') throw new SsoFailure('inactive_user', ssoErrors.inactive_user(), state.origin);
    let session;
    try {
      session = await issueSession(ctx, user);
    } catch (err) {
      // The session service's own refusals (no subscription in force, not activated): its sentence and code.
      if (err instanceof DomainError) {
        throw new SsoFailure(err.code === SUBSCRIPTION_EXPIRED_CODE ? SUBSCRIPTION_EXPIRED_CODE : 'inactive_user', err.detail, state.origin);
      }
      throw err;
    }
    log.info({ client_id: state.clientId, user_id: user.id, provider }, 'single sign-on: signed in');
    const fragment = new URLSearchParams({ access_token: session.access_token, refresh_token: session.refresh_token });
    return { location: `${state.origin}/auth/sso#${fragment.toString()}` };
  } catch (err) {
    if (!(err instanceof SsoFailure)) throw err;
    return { location: loginWithError(ctx, err) };
  }
}
