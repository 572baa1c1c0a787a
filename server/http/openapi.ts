import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_PREFIX } from '../../contract/api-paths';
import { guardKind } from './auth';
import { errorResponses } from './route-schema';

/** The reference page; its JSON document is at `${DOCS_PREFIX}/json`. */
export const DOCS_PREFIX = '/api/docs';
export const BEARER_SCHEME = 'bearerAuth';

/**
 * The OpenAPI 3 document, generated from the routes' contract schemas, and a reference page to read it. Register
 * before the routes: the hook below and the document see every route added afterwards.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // A route behind requireAuth/requireRole is marked with the bearer scheme and its 401 (and 403) here, from the
  // guard itself, so the document cannot disagree with what the server enforces.
  app.addHook('onRoute', (route) => markGuardedRoute(route));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tanya API',
        // The contract's version, the one in the /api/v1 prefix.
        version: '1',
        description:
          'The API of Tanya, the company-internal AI chat assistant. Every success answers ' +
          '`{ "status": "success", "data": ..., "message"? }`; every failure `{ "status": "error", "detail", "message", "fields"?, "code"? }`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token from POST /auth/login or /auth/refresh.' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
    // The page is all 'self' scripts and styles (no inline script), so the app's strict CSP needs no exception.
  });
}

function markGuardedRoute(route: RouteOptions): void {
  if (!route.url.startsWith(API_PREFIX)) return;
  const hooks = [route.onRequest, route.preHandler].flat().filter(Boolean);
  const kinds = hooks.map(guardKind);
  if (!kinds.includes('auth') && !kinds.includes('role')) return;
  const schema = (route.schema ??= {}) as { security?: unknown; response?: Record<string, unknown> };
  schema.security = [{ [BEARER_SCHEME]: [] }];
  schema.response = { ...errorResponses(...(kinds.includes('role') ? ([401, 403] as const) : ([401] as const))), ...schema.response };
}
