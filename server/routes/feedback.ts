import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { feedbackReceipt, feedbackRequest } from '../../contract/feedback';
import { FEEDBACK_RECEIVED } from '../../contract/feedback-constants';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { submitFeedback } from '../services/feedback';

export async function feedbackRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    paths.feedbacks,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Send feedback (with a rating) or report an issue',
        description:
          'Open to every role. A report has no rating: a level sent with one is stored as null. At most ' +
          'FEEDBACK_RATE_LIMIT_PER_USER per person per hour (429 with Retry-After).',
        tags: ['feedback'],
        body: feedbackRequest,
        response: { 200: successEnvelope(feedbackReceipt), ...errorResponses(400, 429) },
      },
    },
    async (request) => ok(await submitFeedback(ctx, currentUser(request), request.body), FEEDBACK_RECEIVED),
  );
}
