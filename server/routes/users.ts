import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { PREFERENCES_SAVED, updatePreferencesRequest } from '../../contract/preferences';
import { updateProfileRequest, updateProfileResponse } from '../../contract/profile';
import { user } from '../../contract/user';
import { updateUserRequest, userList, userListQuery, userStatusQuery } from '../../contract/users';
import { OTHER_ORGANISATION_USERS, USER_STATUS_UPDATED, USER_UPDATED } from '../../contract/users-constants';
import type { AppContext } from '../context';
import { currentScope, currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { PROFILE_UPDATED, updateOwnProfile } from '../services/identity/profile';
import { updateOwnPreferences } from '../services/identity/preferences';
import { toOwnUserView } from '../services/identity/user-view';
import { listUsersIn, setUserStatus, updateUser } from '../services/identity/users';

const OWN_ORGANISATION =
  "Admins, for the people of their own organisation (another organisation's person is 404); the superuser, for the " +
  'people of any organisation.';

export async function userRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOrSuperuser = guards.requireRole('admin', 'superuser');
  const tags = ['users'];

  api.get(
    paths.me,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'The signed-in person',
        description: "With `features`: what the organisation's package allows in the chat.",
        tags,
        response: { 200: successEnvelope(user) },
      },
    },
    async (request) => ok(await toOwnUserView(ctx.db, currentUser(request))),
  );

  api.patch(
    paths.updateProfile,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Choose my department and unit',
        tags,
        body: updateProfileRequest,
        response: { 200: successEnvelope(updateProfileResponse), ...errorResponses(400) },
      },
    },
    async (request) => ok(await updateOwnProfile(ctx.db, currentUser(request), request.body), PROFILE_UPDATED),
  );

  api.patch(
    paths.preferences,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Save my preferences (colour theme)',
        description: "`theme`: `system` (follow the device), `light` or `dark`; kept with the person for every device. Answers the person.",
        tags,
        body: updatePreferencesRequest,
        response: { 200: successEnvelope(user), ...errorResponses(400) },
      },
    },
    async (request) => ok(await updateOwnPreferences(ctx.db, currentUser(request), request.body), PREFERENCES_SAVED),
  );

  api.get(
    paths.users,
    {
      onRequest: adminOrSuperuser,
      config: { clientIdQuery: OTHER_ORGANISATION_USERS },
      schema: {
        summary: 'People of an organisation, by name',
        description:
          "Admins see their own organisation's (`client_id` naming another is 403); the superuser sees the organisation " +
          '`client_id` names (404 when there is none), or everybody when it is absent.',
        tags,
        querystring: userListQuery,
        response: { 200: successEnvelope(userList), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { page, page_size, search, status } = request.query;
      return ok(await listUsersIn(ctx.db, currentScope(request), { page, pageSize: page_size, search, status }));
    },
  );

  api.patch(
    paths.user,
    {
      onRequest: adminOrSuperuser,
      schema: {
        summary: "Change a person's name, role, department or unit",
        description:
          `${OWN_ORGANISATION} A field left out keeps its value; a new department without a unit clears the unit. The ` +
          "unit must belong to the department, both to the organisation (else 400). An admin cannot change their own role.",
        tags,
        params: idParams,
        body: updateUserRequest,
        response: { 200: successEnvelope(user), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await updateUser(ctx.db, currentScope(request), currentUser(request), request.params.id, request.body), USER_UPDATED),
  );

  api.patch(
    paths.userStatus,
    {
      onRequest: adminOrSuperuser,
      schema: {
        summary: 'Activate or deactivate a person',
        description:
          `${OWN_ORGANISATION} Deactivating ends the person's sessions at once: their access tokens are refused and ` +
          'every refresh token is revoked. An admin cannot deactivate themself. Activating takes a seat: 409 when the ' +
          "organisation has no current subscription or its `max_users` active people are reached.",
        tags,
        params: idParams,
        querystring: userStatusQuery,
        response: { 200: successEnvelope(user), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) =>
      ok(await setUserStatus(ctx.db, currentScope(request), currentUser(request), request.params.id, request.query.status), USER_STATUS_UPDATED),
  );
}
