import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { activationLinkCheckRequest, LINK_VALID } from '../../contract/link-check';
import { activateRequest, registerRequest, registerResponse, resendActivationQuery } from '../../contract/registration';
import { ACCOUNT_ACTIVATED, NEW_ACTIVATION_LINK_SENT, VERIFICATION_EMAIL_SENT } from '../../contract/registration-constants';
import type { AppContext } from '../context';
import { currentScope, currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { checkActivationLink } from '../services/identity/link-checks';
import { activateAccount, registerUser, resendActivationFor, resendExpiredActivation } from '../services/identity/registration';

export async function registrationRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const adminOrSuperuser = guards.requireRole('admin', 'superuser');

  api.post(
    paths.register,
    {
      onRequest: adminOrSuperuser,
      schema: {
        summary: 'Register a person and mail them an activation link',
        description:
          "An admin registers role 'user' in their own organisation (another `client_id` is 403); the superuser " +
          "registers role 'admin' in the organisation `client_id` names (required; 404 when there is none). The person " +
          'is active and unverified, without a password, until they open the link (72 hours, single use). 409 when the ' +
          "address is taken, the organisation has no current subscription, or its `max_users` active people are reached. " +
          'A mail that cannot be sent keeps the person: `activation_email_sent` is false and the message says so.',
        tags,
        body: registerRequest,
        response: { 200: successEnvelope(registerResponse), ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request) => {
      const { user, message } = await registerUser(ctx, currentUser(request), request.body, request.log);
      return ok(user, message);
    },
  );

  // Two callers share the path (spec: ?user_id=): the administration, signed in, and the activation screen's
  // "send me a new link" for an expired link, which nobody is signed in for.
  api.post(
    paths.resendActivation,
    {
      schema: {
        summary: 'Mail a new activation link',
        description:
          "`user_id`: admins (own organisation; another's person is 404) and the superuser; 409 once the person has " +
          'activated or while they are inactive. `activation_code`: public, only for an expired, unused link of a person ' +
          'still to activate (the new link goes to their own address); any other code is 400 `activation_invalid`. ' +
          'Limited per IP address (429). The earlier links of the person stop working. 503 when the mail cannot be sent.',
        tags,
        querystring: resendActivationQuery,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const { user_id, activation_code } = request.query;
      if (user_id !== undefined) {
        await adminOrSuperuser.call(app, request, reply);
        await resendActivationFor(ctx, currentScope(request), user_id, request.log);
        return ok({ message: VERIFICATION_EMAIL_SENT }, VERIFICATION_EMAIL_SENT);
      }
      await resendExpiredActivation(ctx, activation_code!, request.ip, request.log);
      return ok({ message: NEW_ACTIVATION_LINK_SENT }, NEW_ACTIVATION_LINK_SENT);
    },
  );

  api.post(
    paths.activateCheck,
    {
      schema: {
        summary: 'Check an activation link before a password is typed',
        description:
          'Public. 200 while the code can activate; otherwise the refusal POST /auth/activate would give, with its `code` ' +
          '(`activation_invalid` 400, `activation_used` 409, `activation_expired` 409, `activation_inactive` 403), and nothing ' +
          'else about the person. Failed checks are limited per IP address like sign-ins (429).',
        tags,
        body: activationLinkCheckRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 403, 409, 429) },
      },
    },
    async (request) => {
      await checkActivationLink(ctx, request.body.activation_code, request.ip);
      return ok({ message: LINK_VALID }, LINK_VALID);
    },
  );

  api.post(
    paths.activate,
    {
      schema: {
        summary: 'Activate an account: choose the password with the mailed code',
        description:
          'Public. The code works once, for 72 hours. Errors carry `code`: `activation_invalid` (400), `activation_used` ' +
          '(409, sign in instead), `activation_expired` (409, ask for a new link), `activation_inactive` (403).',
        tags,
        body: activateRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 403, 409) },
      },
    },
    async (request) => {
      await activateAccount(ctx, request.body.activation_code, request.body.new_password);
      return ok({ message: ACCOUNT_ACTIVATED }, ACCOUNT_ACTIVATED);
    },
  );
}
