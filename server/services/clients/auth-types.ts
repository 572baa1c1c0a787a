import { AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION, AUTH_TYPE_NOT_IN_PACKAGE, authTypesFor } from '../../../contract/clients-constants';
import { InvalidError } from '../errors';

/** Refuses an auth type the package does not allow (standard: email; premium: email or ldap; none: email). */
export function requireAuthTypeInPackage(authType: string, packageType: string | null): void {
  if (!authTypesFor(packageType).includes(authType as never)) {
    throw new InvalidError(AUTH_TYPE_NOT_IN_PACKAGE(authType, packageType), { auth_type: AUTH_TYPE_NOT_IN_PACKAGE(authType, packageType) });
  }
}

/**
 * Edit Client's rule (spec section 4): without a subscription in force the auth type cannot change (the selector is
 * disabled); with one it must be one its package allows, so a standard subscription forces email.
 */
export function requireEditedAuthType(current: string, next: string, activePackageType: string | null): void {
  if (activePackageType !== null) return requireAuthTypeInPackage(next, activePackageType);
  if (next !== current) throw new InvalidError(AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION, { auth_type: AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION });
}
