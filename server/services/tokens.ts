import { createHash, createHmac, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../../contract/roles';

export interface AccessClaims {
  sub: string;
  role: Role;
  client_id: string | null;
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

export function createTokenService(secret: string, accessTtlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async signAccessToken(claims) {
      return new SignJWT({ role: claims.role, client_id: claims.client_id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(ACCESS_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + accessTtlSeconds)
        .sign(key);
    },
    async verifyAccessToken(token) {
      try {
        // A token without exp would never expire: refused, like a missing or wrong issuer or audience.
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: ACCESS_AUDIENCE,
          requiredClaims: ['exp', 'iss', 'aud', 'sub'],
        });
        if (typeof payload.sub !== 'string') throw new AccessTokenError('invalid');
        return { sub: payload.sub, role: payload.role as Role, client_id: (payload.client_id as string | null) ?? null };
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
