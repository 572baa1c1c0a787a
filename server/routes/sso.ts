import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paths } from '../../contract/api-paths';
import type { AppContext } from '../context';

const NOT_CONFIGURED = 'Microsoft sign-in is not configured for this organisation yet.';

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Only our own origins: PUBLIC_URL's, or the one this request came to. Anything else would be an open redirect. */
function allowedOrigin(request: FastifyRequest, publicUrl: string, requested: unknown): string | undefined {
  if (typeof requested !== 'string') return undefined;
  const wanted = originOf(requested);
  if (!wanted) return undefined;
  const own = [originOf(publicUrl), originOf(`${request.protocol}://${request.host}`)];
  return own.includes(wanted) ? wanted : undefined;
}

export async function ssoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Single sign-on is not built yet: send the browser back to the login screen with an explanation.
  app.get(paths.microsoftSso, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const origin = allowedOrigin(request, ctx.config.publicUrl, query.origin) ?? '';
    const search = `error=sso_not_configured&error_description=${encodeURIComponent(NOT_CONFIGURED)}`;
    return reply.redirect(`${origin}/login?${search}`, 302);
  });
}
