import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Role } from '../../contract/roles';
import type { Database } from '../db/database';
import { findUserWithClientStatus, type UserRecord } from '../db/repositories/users';
import { INACTIVE_ACCOUNT, SUBSCRIPTION_INACTIVE } from '../services/access';
import { AccessTokenError, type TokenService } from '../services/tokens';
import { forbidden, HttpError, unauthorized } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded from the database on this request; null on public routes. */
    auth: UserRecord | null;
  }
}

export interface AuthGuards {
  requireAuth: preHandlerAsyncHookHandler;
  requireRole(...roles: Role[]): preHandlerAsyncHookHandler;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The signed-in user, for handlers behind requireAuth/requireRole. */
export function currentUser(request: FastifyRequest): UserRecord {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function createAuthGuards(db: Kysely<Database>, tokens: TokenService): AuthGuards {
  // The user row is read on every request (not trusted from the token), so deactivation, role changes and
  // organisation deactivation take effect at once.
  async function authenticate(request: FastifyRequest): Promise<UserRecord> {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    let sub: string;
    try {
      ({ sub } = await tokens.verifyAccessToken(token));
    } catch (err) {
      if (err instanceof AccessTokenError && err.reason === 'expired') throw unauthorized('Session expired');
      throw unauthorized();
    }
    const found = await findUserWithClientStatus(db, sub);
    if (!found) throw unauthorized();
    const { client_status, ...user } = found;
    if (user.status !== 'active') throw new HttpError(401, INACTIVE_ACCOUNT);
    if (user.role !== 'superuser' && client_status !== 'active') {
      throw new HttpError(401, SUBSCRIPTION_INACTIVE, { code: 'subscription_expired' });
    }
    return user;
  }

  const requireAuth = async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await authenticate(request);
  };

  return {
    requireAuth,
    requireRole(...roles) {
      return async (request, reply) => {
        await requireAuth(request, reply);
        if (!roles.includes(currentUser(request).role)) throw forbidden();
      };
    },
  };
}
