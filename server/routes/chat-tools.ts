import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CHAT_TOOLS_PATH, chatTools, WEB_BROWSING_UNAVAILABLE, type ChatTools } from '../../contract/chat-tools';
import { successEnvelope } from '../../contract/envelope';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';

/** What the chat's tools can do on this server, for any signed-in person (the same for everyone). */
export function chatToolsOf(config: AppContext['config']): ChatTools {
  const browsing = config.tools.search !== undefined;
  return {
    web_browsing: { available: browsing, reason: browsing ? null : WEB_BROWSING_UNAVAILABLE },
    image_generation: { demo: config.tools.images === undefined },
  };
}

export async function chatToolsRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const tools = chatToolsOf(ctx.config);
  app.withTypeProvider<ZodTypeProvider>().get(
    CHAT_TOOLS_PATH,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: "What the chat's tools can do on this server",
        description:
          'Web browsing needs SEARCH_PROVIDER (else `available` false with the reason); image generation without ' +
          'IMAGES_MODEL makes labelled demo images (`demo` true). What a person may use is their `features`.',
        tags: ['chat'],
        response: { 200: successEnvelope(chatTools), ...errorResponses(401) },
      },
    },
    async () => ok(tools),
  );
}
