import type { AppContext } from '../../context';

const NOT_CONFIGURED = 'Microsoft sign-in is not configured for this organisation yet.';

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Only our own origins: PUBLIC_URL's, or the one the request came to. Anything else would be an open redirect. */
function allowedOrigin(publicUrl: string, requestOrigin: string, requested: string | undefined): string | undefined {
  const wanted = requested === undefined ? undefined : originOf(requested);
  if (!wanted) return undefined;
  return [originOf(publicUrl), originOf(requestOrigin)].includes(wanted) ? wanted : undefined;
}

/**
 * Where GET /auth/social/microsoft/ sends the browser. Single sign-on is not built yet: back to the login screen
 * (of the requested origin when it is one of ours, else relative) with an explanation.
 */
export function microsoftSignInRedirect(ctx: AppContext, requestOrigin: string, requested: string | undefined): string {
  const origin = allowedOrigin(ctx.config.publicUrl, requestOrigin, requested) ?? '';
  return `${origin}/login?error=sso_not_configured&error_description=${encodeURIComponent(NOT_CONFIGURED)}`;
}
