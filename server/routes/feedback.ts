import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { feedbackReceipt, feedbackRequest, inboxPage, inboxQuery, replyRatingRequest, replyRatingResult } from '../../contract/feedback';
import { FEEDBACK_RECEIVED, OTHER_ORGANISATION_FEEDBACK, RATING_SAVED } from '../../contract/feedback-constants';
import type { AppContext } from '../context';
import { currentScope, currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { submitFeedback } from '../services/organisation/feedback';
import { readInbox } from '../services/organisation/feedback-inbox';
import { rateReply } from '../services/chat/reply-ratings';

export async function feedbackRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['feedback'];

  api.post(
    paths.feedbacks,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Send feedback (with a rating) or report an issue',
        description:
          'Open to every role. A report has no rating: a level sent with one is stored as null. At most ' +
          'FEEDBACK_RATE_LIMIT_PER_USER per person per hour (429 with Retry-After).',
        tags,
        body: feedbackRequest,
        response: { 200: successEnvelope(feedbackReceipt), ...errorResponses(400, 429) },
      },
    },
    async (request) => ok(await submitFeedback(ctx, currentUser(request), request.body), FEEDBACK_RECEIVED),
  );

  api.put(
    paths.messageRating,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: "Rate a reply: thumbs up, thumbs down, or none",
        description:
          "Only on an assistant's reply in one of the person's own conversations (anything else is 404). One rating " +
          'per person per reply: a new one replaces the earlier one and its comment; null removes it. The rating ' +
          "comes back with the conversation's messages, and the organisation's admins see it in their feedback inbox.",
        tags,
        params: idParams,
        body: replyRatingRequest,
        response: { 200: successEnvelope(replyRatingResult), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await rateReply(ctx.db, currentUser(request), request.params.id, request.body), RATING_SAVED),
  );

  api.get(
    paths.feedbackInbox,
    {
      onRequest: guards.requireRole('admin', 'superuser'),
      config: { clientIdQuery: OTHER_ORGANISATION_FEEDBACK },
      schema: {
        summary: 'Feedback, issue reports and reply ratings, newest first',
        description:
          "Admins read their own organisation's (`client_id` naming another is 403); the superuser reads the " +
          'organisation `client_id` names (404 when there is none), or every organisation\'s when it is absent.',
        tags,
        querystring: inboxQuery,
        response: { 200: successEnvelope(inboxPage), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { page, page_size, kind } = request.query;
      return ok(await readInbox(ctx.db, currentScope(request), { page, pageSize: page_size, kind }));
    },
  );
}
