import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { SHARING_STOPPED, shareLink, shareList, shareListQuery, shareParams, sharedConversation } from '../../contract/shares';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { listMyShares, readSharedConversation, revokeShare, shareConversation } from '../services/conversations/shares';

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
          'The link opens the SPA at /share/{shareId}, under PUBLIC_URL (never the Host header). Asking again ' +
          'returns the same link, its snapshot brought up ' +
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

  api.get(
    paths.shares,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'My shared links, newest first',
        description:
          'The links to conversations I started in my organisation, with the title each had when last shared. ' +
          "Nobody else's links are ever listed.",
        tags,
        querystring: shareListQuery,
        response: { 200: successEnvelope(shareList), ...errorResponses(400) },
      },
    },
    async (request) => ok(await listMyShares(ctx.db, ctx.config.publicUrl, currentUser(request), request.query)),
  );

  api.delete(
    paths.share,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Stop sharing: the link opens nothing from now on',
        description:
          "Only the person who shared the conversation may. Another person's link, of this organisation or " +
          'another, is the 404 of an unknown link. Sharing the conversation again gives a new link.',
        tags,
        params: shareParams,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(404) },
      },
    },
    async (request) => {
      await revokeShare(ctx.db, currentUser(request), request.params.shareId);
      return ok({ message: SHARING_STOPPED }, SHARING_STOPPED);
    },
  );
}
