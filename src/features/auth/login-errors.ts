/** Where the login screen finds an error to show once: the URL (?error=) or a stored SSO failure. */
export const SSO_ERROR_KEY = 'sso_error';

export const SUBSCRIPTION_MESSAGE =
  'Your subscription is not active. Please contact your administrator to renew your subscription.';
export const AUTH_FAILED_MESSAGE = 'Authentication failed. Please try again.';

export function urlLoginError(params: URLSearchParams): string | null {
  const code = params.get('error');
  if (!code) return null;
  const given = params.get('error_description') ?? params.get('message');
  if (given) return given;
  return code === 'subscription_expired' ? SUBSCRIPTION_MESSAGE : AUTH_FAILED_MESSAGE;
}
