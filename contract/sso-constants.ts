// Single sign-on (chat spec: 'Sign in with Microsoft', /auth/sso and the login errors; administration spec: SSO
// callback). Every failure sends the browser to /login?error=<code>&error_description=<text>: the login screen shows
// the text once (src/features/auth/login-errors.ts).

export const SSO_PROVIDERS = ['microsoft', 'google'] as const;
export type SsoProvider = (typeof SSO_PROVIDERS)[number];
export const SSO_PROVIDER_NAMES: Record<SsoProvider, string> = { microsoft: 'Microsoft', google: 'Google' };

/** The spec's login error code for an organisation without a subscription in force (text: the spec's default). */
export const SUBSCRIPTION_EXPIRED_CODE = 'subscription_expired';

export const ssoErrors = {
  unknown_origin: () => 'Single sign-on is not set up for this address. Please sign in with your email and password.',
  sso_not_configured: (provider: string) => `${provider} sign-in is not configured for this organisation yet.`,
  wrong_tenant: (provider: string) =>
    `This ${provider} account belongs to another organisation. Please sign in with your work account.`,
  unknown_user: (provider: string) =>
    `No active account here matches this ${provider} account. Please contact your administrator.`,
  inactive_user: () => 'Your account is inactive. Please contact your administrator.',
  no_email: (provider: string) => `${provider} did not confirm an e-mail address for this account.`,
  invalid_state: () => 'Your sign-in could not be verified or took too long. Please try again.',
  provider_error: (provider: string, reason: string) => `${provider} sign-in failed: ${reason}`,
  sso_unavailable: (provider: string) => `${provider} sign-in is not reachable right now. Please try again later.`,
} as const;
export type SsoErrorCode = keyof typeof ssoErrors;

/** The SSO callback screen (administration spec section 8; chat spec: SSO redirect delay 2 s). */
export const SSO_PROCESSING = 'Processing authentication...';
export const SSO_INVALID_CALLBACK = 'Invalid callback URL';
export const SSO_NO_ACCESS_TOKEN = 'No access token received';
export const SSO_AUTH_FAILED = 'Authentication failed';
export const SSO_SUCCESS = 'Successfully logged in';
export const SSO_REDIRECT_DELAY_MS = 2_000;
