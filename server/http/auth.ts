import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Role } from '../../contract/roles';
import type { AppContext } from '../context';
import type { UserRecord } from '../db/repositories/users';
import { authenticateAccessToken, resolveScope } from '../services/identity/access';
import { ForbiddenError, UnauthenticatedError } from '../services/errors';
import type { TokenService } from '../services/identity/tokens';
import type { Scope } from '../services/scope';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded from the database on this request; null on public routes. */
    auth: UserRecord | null;
    /** Which organisations the signed-in user may see on this request (services/scope.ts); null on public routes. */
    scope: Scope | null;
  }
  interface FastifyContextConfig {
    /**
     * The route reads `?client_id` to name an organisation (the superuser any, others only their own): the sentence
     * refusing a person who names another one. The scope is narrowed to it once the query is validated.
     */
    clientIdQuery?: string;
  }
}

/** Route hooks (onRequest, so nobody unauthenticated gets as far as having a body parsed or validated). */
export interface AuthGuards {
  requireAuth: onRequestAsyncHookHandler;
  requireRole(...roles: Role[]): onRequestAsyncHookHandler;
}

/** Every guard made here, so the OpenAPI document can mark the routes behind one (see openapi.ts). */
const guards = new WeakMap<object, 'auth' | 'role'>();

/** 'auth' for requireAuth, 'role' for a requireRole guard, undefined for anything else. */
export function guardKind(hook: unknown): 'auth' | 'role' | undefined {
  return typeof hook === 'function' ? guards.get(hook) : undefined;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The organisations the signed-in user may see, for handlers behind requireAuth/requireRole. */
export function currentScope(request: FastifyRequest): Scope {
  if (!request.scope) throw new UnauthenticatedError();
  return request.scope;
}

/** The signed-in user, for handlers behind requireAuth/requireRole. */
export function currentUser(request: FastifyRequest): UserRecord {
  if (!request.auth) throw new UnauthenticatedError();
  return request.auth;
}

export function createAuthGuards(db: AppContext['db'], tokens: TokenService): AuthGuards {
  const requireAuth = async (request: FastifyRequest, _reply: FastifyReply) => {
    request.auth = await authenticateAccessToken(db, tokens, bearerToken(request));
    request.scope = await resolveScope(db, request.auth);
  };
  guards.set(requireAuth, 'auth');

  return {
    requireAuth,
    requireRole(...roles) {
      const requireRole = async (request: FastifyRequest, reply: FastifyReply) => {
        await requireAuth(request, reply);
        if (!roles.includes(currentUser(request).role)) throw new ForbiddenError();
      };
      guards.set(requireRole, 'role');
      return requireRole;
    },
  };
}

/**
 * preHandler of every route: where the route reads `?client_id` (config.clientIdQuery), the scope the guard resolved
 * becomes the organisation named, once the query has been validated (a malformed id stays a 400, not a 403/404).
 */
export function createScopeNarrowing(db: AppContext['db']) {
  return async (request: FastifyRequest) => {
    const otherOrganisation = request.routeOptions.config?.clientIdQuery;
    if (!otherOrganisation || !request.auth) return;
    const requested = (request.query as { client_id?: string } | undefined)?.client_id;
    request.scope = await resolveScope(db, request.auth, requested, otherOrganisation);
  };
}
