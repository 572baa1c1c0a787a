import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../contract/api-paths';
import type { AppContext } from '../context';
import { microsoftSignInRedirect } from '../services/identity/sso';

/** Any unusable `origin` (repeated, not text) is simply ignored: the redirect then stays on this server. */
const ssoQuery = z.object({
  origin: z.string().optional().catch(undefined).describe('Where the SPA runs; honoured only when it is one of our own origins.'),
});

export async function ssoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.microsoftSso,
    {
      schema: {
        summary: 'Start Microsoft single sign-on',
        description: 'Not built yet: redirects (302) to `/login?error=sso_not_configured&error_description=...`.',
        tags: ['auth'],
        querystring: ssoQuery,
        response: { 302: z.undefined().describe('Redirect (Location header) to the login screen with an explanation.') },
      },
    },
    async (request, reply) => {
      const location = microsoftSignInRedirect(ctx, `${request.protocol}://${request.host}`, request.query.origin);
      return reply.redirect(location, 302);
    },
  );
}
