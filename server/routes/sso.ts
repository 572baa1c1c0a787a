import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../contract/api-paths';
import type { SsoProvider } from '../../contract/sso-constants';
import type { AppContext } from '../context';
import { requestOrigin } from '../http/request-origin';
import { finishSso, SSO_CALLBACK_PATH, startSso, type SsoStep } from '../services/identity/sso';
import { clearedStateCookie, cookieValue, SSO_COOKIE, stateCookie } from '../services/identity/sso-state';

/** Any unusable `origin` (repeated, not text) is simply ignored: the sign-in then fails as from an unknown address. */
const ssoQuery = z.object({
  origin: z
    .string()
    .optional()
    .catch(undefined)
    .describe("Where the SPA runs: the client organisation's origin URL (absent: the Referer's origin)."),
});

const FAILURES =
  'Every failure redirects to `<origin>/login?error=<code>&error_description=<text>` (codes in contract/sso-constants.ts; ' +
  '`subscription_expired` when the organisation has no subscription in force); the origin is always a stored client origin ' +
  "or PUBLIC_URL's, never an open redirect.";

const redirect = z.undefined().describe('Redirect (Location header).');

export async function ssoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const secure = ctx.config.publicUrl.startsWith('https:');
  const send = (reply: FastifyReply, step: SsoStep, cookie: string | undefined) => {
    if (cookie) reply.header('set-cookie', cookie);
    reply.header('cache-control', 'no-store');
    return reply.redirect(step.location, 302);
  };

  const start = (provider: SsoProvider, path: string, label: string) =>
    api.get(
      path,
      {
        schema: {
          summary: `Start ${label} single sign-on`,
          description:
            `Finds the client organisation by \`origin\` (its stored origin URL) and its ${label} OAuth configuration, then redirects (302) ` +
            'to the provider (authorization code with PKCE S256, state and nonce, kept in a sealed HttpOnly cookie for 10 minutes). ' +
            `The provider must allow the redirect URI \`<origin>${SSO_CALLBACK_PATH}\`. ${FAILURES}`,
          tags: ['auth'],
          querystring: ssoQuery,
          response: { 302: redirect },
        },
      },
      async (request, reply) => {
        // Without ?origin= (a link followed before the page's script ran) the page the person was on tells it.
        const step = await startSso(ctx, provider, request.query.origin ?? requestOrigin(request), request.log);
        return send(reply, step, step.cookie && stateCookie(step.cookie, SSO_CALLBACK_PATH, secure));
      },
    );
  start('microsoft', paths.microsoftSso, 'Microsoft');
  start('google', paths.googleSso, 'Google');

  api.get(
    paths.ssoCallback,
    {
      schema: {
        summary: 'Single sign-on callback',
        description:
          "The provider's redirect. Exchanges the code (state, PKCE, nonce, issuer, audience and signature checked; for Microsoft the " +
          "ID token's tenant must be the configured one), finds the active person of that organisation with the provider's e-mail " +
          '(no account is created), starts a session and redirects (302) to `<origin>/auth/sso#access_token=...&refresh_token=...`. ' +
          FAILURES,
        tags: ['auth'],
        response: { 302: redirect },
      },
    },
    async (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const step = await finishSso(ctx, cookieValue(request.headers.cookie, SSO_COOKIE), query, request.log);
      // The state is spent whatever happened: a second visit of this URL must not start a session.
      return send(reply, step, clearedStateCookie(SSO_CALLBACK_PATH, secure));
    },
  );
}
