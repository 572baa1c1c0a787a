import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { updateProfileRequest, updateProfileResponse } from '../../contract/profile';
import { user } from '../../contract/user';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { PROFILE_UPDATED, updateOwnProfile } from '../services/profile';
import { toUserView } from '../services/user-view';

export async function userRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    paths.me,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'The signed-in person',
        description: "With `features`: what the organisation's package allows in the chat.",
        tags: ['users'],
        response: { 200: successEnvelope(user) },
      },
    },
    async (request) => ok(await toUserView(ctx.db, currentUser(request))),
  );

  api.patch(
    paths.updateProfile,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Choose my department and unit',
        tags: ['users'],
        body: updateProfileRequest,
        response: { 200: successEnvelope(updateProfileResponse), ...errorResponses(400) },
      },
    },
    async (request) => ok(await updateOwnProfile(ctx.db, currentUser(request), request.body), PROFILE_UPDATED),
  );
}
