import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { shareLink, shareParams, sharedConversation } from '../../contract/shares';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { readSharedConversation, shareConversation } from '../services/shares';

export async function shareRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shares'];

  api.post(
    paths.shareConversation,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'A read-only link to one of my conversations',
        description:
          'The link opens the SPA at /share/{shareId}. Asking again returns the same link, its snapshot brought up ' +
          'to now. The snapshot holds the complete messages (not a reply still being written, nor one that failed). ' +
          "Deleting the conversation ends the link. Another user's conversation is 404.",
        tags,
        params: idParams,
        response: { 200: successEnvelope(shareLink), ...errorResponses(404) },
      },
    },
    async (request) => ok(await shareConversation(ctx.db, ctx.config.publicUrl, currentUser(request), request.params.id)),
  );

  api.get(
    paths.share,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'A shared conversation as it was when shared, oldest message first',
        description:
          "Only for people of the conversation's organisation (a superuser's shares: for superusers); for anyone " +
          'else the answer is the 404 of an unknown link.',
        tags,
        params: shareParams,
        response: { 200: successEnvelope(sharedConversation), ...errorResponses(404) },
      },
    },
    async (request) => ok(await readSharedConversation(ctx.db, currentUser(request), request.params.shareId)),
  );
}
