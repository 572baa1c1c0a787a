// Spec texts and constants of a client's OAuth configurations (administration spec: OAuth Configurations modal,
// sections 5, 8 and 9), free of zod (the SPA's forms check them before sending).

/** Section 9: OAuth providers. */
export const OAUTH_PROVIDERS = ['microsoft', 'google'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** Bounds of what is stored (the spec gives none); far above any provider's real ids and secrets. */
export const OAUTH_ID_MAX_LENGTH = 255;
export const OAUTH_SECRET_MAX_LENGTH = 1024;

/** Section 5: OAuth add and edit. */
export const OAUTH_PROVIDER_REQUIRED = 'Provider is required';
export const OAUTH_CLIENT_ID_REQUIRED = 'Client ID is required';
export const OAUTH_CLIENT_SECRET_REQUIRED = 'Client Secret is required';

/** Section 8: toasts. */
export const OAUTH_FETCH_FAILED = 'Failed to fetch OAuth configurations';
export const OAUTH_CREATE_FAILED = 'Failed to create OAuth configuration';
export const OAUTH_UPDATE_FAILED = 'Failed to update OAuth configuration';
export const OAUTH_DELETE_FAILED = 'Failed to delete OAuth configuration';
export const OAUTH_CREATED = 'OAuth configuration created successfully';
export const OAUTH_UPDATED = 'OAuth configuration updated successfully';
export const OAUTH_DELETED = 'OAuth configuration deleted successfully';

/** Section 8: the delete confirmation. */
export const oauthDeleteConfirm = (provider: string) =>
  `Are you sure you want to delete the ${provider} OAuth configuration? This action cannot be undone.`;

// The server's own refusals (the spec shows none).
export const OAUTH_CONFIG_NOT_FOUND = 'OAuth configuration not found';
export const CLIENT_NOT_FOUND = 'Client not found';
export const oauthProviderTaken = (provider: string) => `This client already has a ${provider} OAuth configuration`;
export const OAUTH_KEY_MISSING =
  'OAuth configurations cannot be stored: the server has no OAUTH_SECRET_KEY. Ask the operator to set it.';
export const OAUTH_KEY_WRONG =
  'The stored OAuth client secrets cannot be read with the configured OAUTH_SECRET_KEY. Ask the operator to check it.';

/** How a stored secret is shown: never more than its last 4 characters. */
export const OAUTH_SECRET_MASK = '••••••••';

/** The modal's words for the list refused with 503 (either of the two sentences above: the list keeps only the status). */
export const OAUTH_LIST_UNAVAILABLE =
  'OAuth configurations cannot be read: the server has no OAUTH_SECRET_KEY, or it does not open the stored secrets. Ask the operator to check it.';
