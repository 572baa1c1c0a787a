import { createHash, createHmac, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../../../contract/roles';

export interface AccessClaims {
  sub: string;
  role: Role;
  client_id: string | null;
  /** The person's session version when signed (users.session_version): raising it refuses the token at once. */
  sv: number;
  /** The sign-in it belongs to (its refresh-token family): logging that sign-in out refuses the token at once. */
  sid: string;
}

export type AccessTokenFailure = 'missing' | 'invalid' | 'expired';

export class AccessTokenError extends Error {
  constructor(readonly reason: AccessTokenFailure) {
    super(`Access token ${reason}`);
  }
}

export interface TokenService {
  signAccessToken(claims: AccessClaims): Promise<string>;
  /** Throws AccessTokenError. */
  verifyAccessToken(token: string): Promise<AccessClaims>;
  /**
   * The refresh token that follows `previous` in its family. Derived (keyed with the signing secret) rather than
   * random, so a repeated refresh within the grace period can hand back the same token without it ever being
   * stored; nobody without the secret can compute it.
   */
  successorRefreshToken(previous: string): OpaqueToken;
}

export interface OpaqueToken {
  token: string;
  hash: string;
}

const ISSUER = 'tanya';
// Other tokens signed with the same secret later (activation, SSO state) get their own audience, so none of them
// can ever pass for an access token.
const ACCESS_AUDIENCE = 'tanya-api';
/** Verified access tokens remembered (the oldest forgotten first): far more than the sessions active at once. */
const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenService(secret: string, accessTtlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  // Imported once: given the raw bytes, jose imports a WebCrypto key again on every sign and verify.
  let hmacKey: Promise<CryptoKey> | undefined;
  const signingKey = () =>
    (hmacKey ??= crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  // Tokens that passed verification, until they expire: a signed token stays valid (or not) for good, so every
  // later request with it needs only the expiry checked, not the signature again (a WebCrypto job each time).
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();
  const remember = (token: string, claims: AccessClaims, exp: number) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, exp });
  };
  return {
    async signAccessToken(claims) {
      return new SignJWT({ role: claims.role, client_id: claims.client_id, sv: claims.sv, sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(ACCESS_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + accessTtlSeconds)
        .sign(await signingKey());
    },
    async verifyAccessToken(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > Date.now() / 1000) return known.claims;
        verified.delete(token);
        throw new AccessTokenError('expired');
      }
      try {
        // A token without exp would never expire: refused, like a missing or wrong issuer or audience.
        const { payload } = await jwtVerify(token, await signingKey(), {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: ACCESS_AUDIENCE,
          requiredClaims: ['exp', 'iss', 'aud', 'sub'],
        });
        const { sub, sv, sid } = payload;
        // A token without its session (signed before sessions were versioned) cannot be checked: refused, and
        // the client's refresh gets it a new one.
        if (typeof sub !== 'string' || !Number.isSafeInteger(sv) || typeof sid !== 'string' || !sid) {
          throw new AccessTokenError('invalid');
        }
        const claims: AccessClaims = {
          sub,
          role: payload.role as Role,
          client_id: (payload.client_id as string | null) ?? null,
          sv: sv as number,
          sid,
        };
        remember(token, claims, payload.exp!);
        return claims;
      } catch (err) {
        if (err instanceof AccessTokenError) throw err;
        throw new AccessTokenError(err instanceof errors.JWTExpired ? 'expired' : 'invalid');
      }
    },
    successorRefreshToken(previous) {
      const token = createHmac('sha256', key).update(`refresh-successor:${previous}`).digest('base64url');
      return { token, hash: sha256Hex(token) };
    },
  };
}

/** Opaque single-use secrets (refresh and reset tokens): 32 random bytes, kept only as a SHA-256 hash. */
export function newOpaqueToken(): OpaqueToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
