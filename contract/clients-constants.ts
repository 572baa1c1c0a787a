// Spec texts and limits of the superuser's client administration (Clients page, Register New Client, Edit Client,
// Client Details, Client Usage Analytics: administration spec sections 2, 4, 5, 8 and 9), free of zod: the SPA's
// forms check them before sending. Sentences the spec leaves unsaid are this project's own.

/** Clients page: list size (server default) and search debounce (SPA). */
export const CLIENT_PAGE_SIZE = 10;
export const CLIENT_SEARCH_DEBOUNCE_MS = 500;

export const CLIENT_TYPES = ['corporate', 'educational', 'individual'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
/** Every status a client can have; the forms and the switch offer only active and inactive. */
export const CLIENT_STATUSES = ['active', 'inactive', 'pending'] as const;
export const CLIENT_FORM_STATUSES = ['active', 'inactive'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];
/** The auth types a client can be given (the list also styles sso and local, which no form sets). */
export const AUTH_TYPES = ['email', 'ldap'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** Register form defaults (spec section 4). */
export const CLIENT_DEFAULTS = { status: 'active', auth_type: 'email', client_type: 'corporate' } as const;

/** Auth types each package allows (spec sections 4 and 9); any other package, or none, allows only email. */
export const PACKAGE_AUTH_TYPES: Readonly<Record<string, readonly AuthType[]>> = {
  standard: ['email'],
  premium: ['email', 'ldap'],
};
export function authTypesFor(packageType: string | null | undefined): readonly AuthType[] {
  return (packageType && PACKAGE_AUTH_TYPES[packageType.toLowerCase()]) || ['email'];
}

export const CLIENT_NAME_MAX_LENGTH = 200;
export const CLIENT_EMAIL_MAX_LENGTH = 254;
export const CLIENT_PHONE_MAX_LENGTH = 40;
export const CLIENT_ORIGIN_MAX_LENGTH = 2000;

export const CLIENT_NAME_REQUIRED = 'Client name is required';
export const CLIENT_NAME_NOT_TEXT = 'Client name must be text';
export const CLIENT_NAME_TOO_LONG = `Client name cannot be more than ${CLIENT_NAME_MAX_LENGTH} characters`;
export const CLIENT_EMAIL_REQUIRED = 'Email is required';
export const CLIENT_EMAIL_INVALID = 'Enter a valid email address';
export const CLIENT_PHONE_INVALID = `Phone must be text of at most ${CLIENT_PHONE_MAX_LENGTH} characters`;
export const CLIENT_ORIGIN_REQUIRED = 'Origin URL is required';
export const CLIENT_ORIGIN_INVALID = 'Origin URL must be an http:// or https:// address';
export const CONTACT_INFO_REQUIRED = 'Contact information (email) is required';
export const CLIENT_DATA_REQUIRED = 'Client information is required';
export const SUBSCRIPTION_DATA_REQUIRED = 'Subscription information is required';

/** Auth type rules (spec section 4), enforced by the server too. */
export const AUTH_TYPE_NOT_IN_PACKAGE = (authType: string, packageType: string | null) =>
  packageType
    ? `The ${packageType} package does not allow ${authType} sign-in; it allows ${authTypesFor(packageType).join(' or ')}.`
    : `Without a package only email sign-in is allowed, not ${authType}.`;
export const AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION =
  'The authentication type can only be changed while the client has an active subscription.';

export const CLIENT_NOT_FOUND = 'Client not found';
/** Client Details (spec section 2). */
export const CLIENT_DETAILS_FAILED = 'Failed to load client details';
/** Access guard of the Clients pages (spec section 2). */
export const SUPERUSERS_ONLY = 'Access denied. Only superusers can access this page.';

/** Spec section 8. */
export const CLIENTS_FETCH_FAILED = 'Failed to fetch clients';
export const CLIENT_FETCH_FAILED = 'Failed to fetch client details';
export const CLIENT_REGISTER_FAILED = 'Failed to register client';
export const CLIENT_UPDATE_FAILED = 'Failed to update client';
export const CLIENT_STATUS_UPDATE_FAILED = 'Failed to update client status';
export const CLIENT_QUOTA_FETCH_FAILED = 'Failed to fetch client quota';
export const CLIENT_USAGE_FETCH_FAILED = 'Failed to fetch client usage';
export const CLIENT_REGISTERED = 'Client registered successfully';
export const CLIENT_UPDATED = 'Client updated successfully';
export const CLIENT_STATUS_UPDATED = 'Client status updated successfully';
export const NO_CLIENTS_FOUND = 'No clients found';
export const NO_CLIENT_ID = 'No valid client ID provided';

/** Client Usage Analytics: the row of people without a department, and of a department deleted since. */
export const NO_DEPARTMENT_NAME = 'No department';
export const DELETED_DEPARTMENT_NAME = 'Deleted department';
export const USAGE_PERIOD_INCOMPLETE = 'Give both year and month, or neither (the previous calendar month)';
export const USAGE_YEAR_INVALID = 'year must be a four-digit year from 2000 to 2100';
export const USAGE_MONTH_INVALID = 'Month must be between 01 and 12';

