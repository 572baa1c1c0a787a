// A premium client's LDAP directory (issue 31; the spec names the auth type ldap but not its settings), free of zod:
// the client's Directory form checks these before sending, the server again.

export const LDAP_URL_MAX_LENGTH = 500;
export const LDAP_DN_MAX_LENGTH = 500;
export const LDAP_FILTER_MAX_LENGTH = 500;
export const LDAP_SECRET_MAX_LENGTH = 1024;

/** Placeholders a bind DN template or a search filter may hold, filled (escaped) from the e-mail typed at sign-in. */
export const LDAP_PLACEHOLDERS = ['{email}', '{username}'] as const;

export const LDAP_URL_REQUIRED = 'Directory URL is required';
export const LDAP_URL_INVALID = 'Directory URL must start with ldap:// or ldaps://';
export const LDAP_MODE_REQUIRED = 'Give either a bind DN template, or a search base with a search filter';
export const LDAP_TEMPLATE_PLACEHOLDER = 'The bind DN template must contain {email} or {username}';
export const LDAP_FILTER_PLACEHOLDER = 'The search filter must contain {email} or {username}';
export const LDAP_FILTER_PARENTHESES = 'The search filter must be enclosed in parentheses, such as (mail={email})';
export const LDAP_SEARCH_BASE_REQUIRED = 'Search base is required with a search filter';
export const LDAP_SERVICE_SECRET_REQUIRED = 'Service account password is required with a service account DN';

export const LDAP_SETTINGS_NOT_FOUND = 'This client has no directory settings';
export const LDAP_NEEDS_PREMIUM = 'Directory sign-in needs a premium subscription in force';

export const LDAP_SETTINGS_SAVED = 'Directory settings saved successfully';
export const LDAP_SETTINGS_DELETED = 'Directory settings removed';
export const LDAP_SETTINGS_FETCH_FAILED = 'Failed to fetch directory settings';
export const LDAP_SETTINGS_SAVE_FAILED = 'Failed to save directory settings';

/** Sign-in: the directory did not answer within LDAP_TIMEOUT_MS, or refused the connection. */
export const LDAP_DIRECTORY_DOWN =
  "Your organisation's directory is not answering. Please try again in a few minutes or contact your IT team.";
/** A password reset asked for by a person whose organisation signs in with its directory. */
export const LDAP_RESET_REFUSED =
  "Your organisation signs in with its own directory: change your password there, or ask your IT team.";
