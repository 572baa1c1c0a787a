import { ForbiddenError } from '../errors';
import type { Scope } from '../scope';

/**
 * Client administration is the superuser's, whose scope is every organisation (services/scope.ts). The routes let
 * only the superuser in; each service checks the scope it is handed as well, so no other caller can reach it.
 */
export function requireEveryOrganisation(scope: Scope): void {
  if (scope.kind !== 'every') throw new ForbiddenError();
}
