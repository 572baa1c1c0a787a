import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { UnauthenticatedError } from '../services/errors';

export const METRICS_PATH = '/metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared as digests: equal lengths for timingSafeEqual, and no timing that tells how much of a guess was right. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * GET /metrics in Prometheus text (server/platform/metrics.ts), beside the API as Prometheus expects it. With
 * METRICS_TOKEN set a scraper sends it as a bearer token; without, keep the port off the public network.
 */
export async function metricsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (ctx.config.metricsToken && !bearerMatches(request.headers.authorization, ctx.config.metricsToken)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new UnauthenticatedError();
    }
    const { contentType, text } = await ctx.metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(text);
  });
}
