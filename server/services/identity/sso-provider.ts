import * as oidc from 'openid-client';

// The identity provider's side of single sign-on, through `openid-client`: discovery, the authorization URL with
// PKCE (S256), state and nonce, and the code exchange, which checks state, PKCE, nonce, issuer, audience and the ID
// token's signature. Nothing of ours decodes tokens by hand.

export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Loopback issuers (the tests' local provider) may speak plain HTTP; every other issuer must be HTTPS. */
function isLoopback(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const discovered = new Map<string, { config: Promise<oidc.Configuration>; at: number }>();

/**
 * The provider's configuration for this client, discovered once per 10 minutes per issuer and client: a discovery
 * is two HTTPS round trips that every sign-in would otherwise pay. A failed discovery is not kept.
 */
export function providerConfiguration(client: ProviderClient): Promise<oidc.Configuration> {
  const key = JSON.stringify([client.issuer, client.clientId, client.clientSecret]);
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const issuer = new URL(client.issuer);
  const config = oidc.discovery(issuer, client.clientId, client.clientSecret, undefined, {
    execute: isLoopback(issuer) ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
  discovered.set(key, { config, at: Date.now() });
  config.catch(() => discovered.delete(key));
  return config;
}

export interface AuthorizationStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function startAuthorization(config: oidc.Configuration, redirectUri: string): Promise<AuthorizationStart> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

export type CodeExchange =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; reason: 'provider'; error: string; description: string | undefined }
  | { ok: false; reason: 'checks'; detail: string }
  | { ok: false; reason: 'unreachable'; detail: string };

/** The ID token's claims once every check passed; otherwise why not (the provider's own error, a failed check). */
export async function exchangeCode(
  config: oidc.Configuration,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<CodeExchange> {
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return { ok: false, reason: 'checks', detail: 'no ID token' };
    return { ok: true, claims: claims as Record<string, unknown> };
  } catch (err) {
    if (err instanceof oidc.AuthorizationResponseError) {
      return { ok: false, reason: 'provider', error: err.error, description: err.error_description };
    }
    // invalid_grant: the code, its PKCE verifier or its redirect did not match (tampering, or a replayed code).
    if (err instanceof oidc.ResponseBodyError) return { ok: false, reason: 'checks', detail: `${err.error}: ${err.error_description ?? ''}` };
    if (err instanceof oidc.ClientError) return { ok: false, reason: 'checks', detail: `${err.code ?? ''} ${err.message}` };
    return { ok: false, reason: 'unreachable', detail: err instanceof Error ? err.message : String(err) };
  }
}
