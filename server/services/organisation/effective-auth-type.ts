import { authTypesFor } from '../../../contract/clients-constants';

/**
 * The auth type a client signs in with: the stored one when the package in force allows it, else email. A client
 * that chose ldap under premium and then moved to a standard subscription signs in with email from the day the
 * standard one starts (spec section 4: a standard active subscription forces email), without anyone editing it.
 * Here, below both, because the client views (services/clients) and sign-in (services/identity) ask it.
 */
export function effectiveAuthType(stored: string, activePackageType: string | null): string {
  if (activePackageType === null) return stored;
  return authTypesFor(activePackageType).includes(stored as never) ? stored : 'email';
}
