import type { FastifyInstance } from 'fastify';
import { paths } from '../../contract/api-paths';
import { updateProfileRequest, updateProfileResponse } from '../../contract/profile';
import { user as userSchema } from '../../contract/user';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { currentUser } from '../http/auth';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import { updateOwnProfile } from '../services/profile';
import { toUserView } from '../services/user-view';

export async function userRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  app.get(paths.me, { preHandler: guards.requireAuth }, async (request) => {
    return ok(userSchema, await toUserView(ctx.db, currentUser(request)));
  });

  app.patch(paths.updateProfile, { preHandler: guards.requireAuth }, async (request) => {
    const body = parseBody(updateProfileRequest, request.body);
    const result = await updateOwnProfile(ctx.db, currentUser(request), body);
    return ok(updateProfileResponse, result, 'Profile updated successfully');
  });
}
