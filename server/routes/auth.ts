import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import {
  loginRequest,
  loginResponse,
  logoutRequest,
  refreshResponse,
  requestResetPasswordRequest,
  resetPasswordRequest,
} from '../../contract/auth';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { LINK_VALID, resetLinkCheckRequest } from '../../contract/link-check';
import type { AppContext } from '../context';
import { bearerToken } from '../http/auth';
import { ok } from '../http/reply';
import { requestOrigin } from '../http/request-origin';
import { errorResponses } from '../http/route-schema';
import { LOGGED_OUT, login, logout, PASSWORD_UPDATED, refresh, requestPasswordReset, resetPassword } from '../services/identity/auth';
import { checkResetLink } from '../services/identity/link-checks';

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.post(
    paths.login,
    {
      schema: {
        summary: 'Sign in with email and password',
        description:
          'Failed sign-ins are limited per IP address, per IP address and email, and (a high last resort) per email: 429 with Retry-After. ' +
          "The people of a premium client with auth type ldap are checked by its directory (a new one is created on a first sign-in from the client's origin); " +
          'a directory that does not answer within LDAP_TIMEOUT_MS gives 503.',
        tags,
        body: loginRequest,
        response: { 200: successEnvelope(loginResponse), ...errorResponses(400, 401, 403, 429, 503) },
      },
    },
    async (request) => ok(await login(ctx, request.body, { ip: request.ip, origin: requestOrigin(request), log: request.log })),
  );

  // The refresh token is the bearer here; the access token is usually expired by now.
  api.post(
    paths.refresh,
    {
      schema: {
        summary: 'Rotate the refresh token',
        description:
          'Send the refresh token as `Authorization: Bearer <refresh_token>`. It is single-use: sent again within the grace period (REFRESH_REUSE_GRACE_SECONDS, 30 s) while its successor is unused, it answers that same successor; any other second use ends the whole session.',
        tags,
        response: { 200: successEnvelope(refreshResponse), ...errorResponses(401) },
      },
    },
    async (request) => ok(await refresh(ctx, bearerToken(request))),
  );

  api.post(
    paths.logout,
    {
      schema: {
        summary: 'End the session of a refresh token',
        description: 'Idempotent: an unknown or already ended session answers 200 too.',
        tags,
        body: logoutRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400) },
      },
    },
    async (request) => {
      await logout(ctx, request.body.refresh_token);
      return ok({ message: LOGGED_OUT });
    },
  );

  api.post(
    paths.requestResetPassword,
    {
      schema: {
        summary: 'Mail a password-reset link',
        description:
          'The same answer for every email, known or not, and over the rate limits (per IP address and per IP address and email), where nothing is sent. ' +
          'A person whose organisation signs in with its LDAP directory is refused (400): their password is changed there.',
        tags,
        body: requestResetPasswordRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400) },
      },
    },
    async (request) => {
      const message = await requestPasswordReset(ctx, request.body.email, request.ip, request.log);
      return ok({ message }, message);
    },
  );

  api.post(
    paths.resetPasswordCheck,
    {
      schema: {
        summary: 'Check a reset link before a password is typed',
        description:
          "Public. 200 while the token can set a password; 400 'Invalid or expired reset token' for an unknown, used or expired " +
          'token alike (nothing else is revealed). Failed checks are limited per IP address like sign-ins (429).',
        tags,
        body: resetLinkCheckRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await checkResetLink(ctx, request.body.token, request.ip);
      return ok({ message: LINK_VALID }, LINK_VALID);
    },
  );

  api.post(
    paths.resetPassword,
    {
      schema: {
        summary: 'Choose a new password with a reset token',
        description: 'Ends every session of the account.',
        tags,
        body: resetPasswordRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400) },
      },
    },
    async (request) => {
      await resetPassword(ctx, request.body.token, request.body.new_password);
      return ok({ message: PASSWORD_UPDATED }, PASSWORD_UPDATED);
    },
  );
}
