import { ForbiddenError } from './errors';

/**
 * Which organisations a request may see, resolved once per request by the auth guard (server/http/auth.ts, with
 * identity/access.ts's resolveScope) and handed to the services, which never look at roles to decide tenancy:
 * - one organisation: a person's own, or the one the superuser names with `client_id` (`named`);
 * - every organisation: the superuser, who belongs to none, naming none.
 */
export type Scope =
  | { readonly kind: 'organisation'; readonly clientId: string; readonly named: boolean }
  | { readonly kind: 'every' };

export const everyOrganisation: Scope = { kind: 'every' };

export const oneOrganisation = (clientId: string, named = false): Scope => ({ kind: 'organisation', clientId, named });

/** The one organisation a read or change of an organisation's area acts on; with every organisation in scope, none (403). */
export function organisationIn(scope: Scope): string {
  if (scope.kind !== 'organisation') throw new ForbiddenError();
  return scope.clientId;
}

/** A list's organisation filter: undefined reads every organisation. */
export function organisationFilter(scope: Scope): string | undefined {
  return scope.kind === 'organisation' ? scope.clientId : undefined;
}
