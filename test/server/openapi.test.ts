import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/api-paths';
import { BEARER_SCHEME, DOCS_PREFIX } from '../../server/http/openapi';
import { createTestApp, type TestApp } from './helpers/test-app';

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

/** Public API routes; every other one is behind requireAuth/requireRole. */
const PUBLIC = new Set([
  'GET /api/v1/health',
  'GET /api/v1/health/ready',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/logout',
  'POST /api/v1/auth/request-reset-password',
  'POST /api/v1/auth/reset-password',
  'POST /api/v1/auth/activate',
  // The reset and activation screens check their link before a password is typed.
  'POST /api/v1/auth/reset-password/check',
  'POST /api/v1/auth/activate/check',
  // Public with ?activation_code=; with ?user_id= it checks the bearer token itself.
  'POST /api/v1/auth/resend-activation',
  'GET /api/v1/auth/social/microsoft/',
  'GET /api/v1/auth/social/google/',
  'GET /api/v1/auth/social/callback',
  // The landing page's contact form (reCAPTCHA and a per-address limit instead of a session).
  'GET /api/v1/feedbacks/contact-form/settings',
  'POST /api/v1/feedbacks/contact-form',
  // The key is the capability: an <img> showing a file in a message cannot send a token.
  'GET /api/v1/files/:key',
]);

/** `/chat/conversations/:id` (Fastify) -> `/chat/conversations/{id}` (OpenAPI). */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  /** Every API route the app registers, seen by an onRoute hook as it is added. */
  const registered = new Set<string>();
  let doc: OpenApiDocument;

  beforeAll(async () => {
    // Fastify adds a HEAD twin to each GET on its own: not a route of ours.
    t = await createTestApp({
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (route.url.startsWith(API_PREFIX) && method !== 'HEAD') registered.add(`${method} ${route.url}`);
        }
      },
    });
    const res = await t.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.json();
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  it('is OpenAPI 3 and lists every registered API route, and nothing else', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(registered.size).toBeGreaterThan(10);
    const documented = new Set(operations().map((o) => o.key));
    const expected = new Set([...registered].map((key) => openApiPath(key)));
    expect([...expected].filter((key) => !documented.has(key)), 'registered but not documented').toEqual([]);
    expect([...documented].filter((key) => !expected.has(key)), 'documented but not an API route').toEqual([]);
  });

  it('marks exactly the routes behind requireAuth/requireRole with the bearer scheme', () => {
    expect(doc.components.securitySchemes[BEARER_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { key, op } of operations()) {
      const isPublic = PUBLIC.has(key.replace(/\{(\w+)\}/g, ':$1'));
      expect(op.security, key).toEqual(isPublic ? undefined : [{ [BEARER_SCHEME]: [] }]);
      if (!isPublic) expect(Object.keys(op.responses), key).toContain('401');
    }
  });

  it('carries the contract schemas: bodies, query parameters, the envelope and the error responses', () => {
    const login = doc.paths['/api/v1/auth/login'].post;
    expect(login.requestBody?.content['application/json'].schema).toMatchObject({
      properties: { email: expect.any(Object), password: expect.any(Object) },
    });
    expect(JSON.stringify(login.responses['200'])).toContain('access_token');
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
    const list = doc.paths['/api/v1/chat/conversations'].get;
    expect(list.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['query:page', 'query:page_size', 'query:search']),
    );
    const me = JSON.stringify(doc.paths['/api/v1/users/me'].get.responses['200']);
    expect(me).toContain('features');
    expect(me).not.toContain('password_hash');
  });

  it('documents the chat stream as text/event-stream with its JSON refusals', () => {
    const send = doc.paths['/api/v1/chat/messages'].post;
    expect(Object.keys(send.responses['200'].content ?? {})).toEqual(['text/event-stream']);
    for (const status of ['400', '401', '403', '404', '409', '429']) {
      expect(Object.keys(send.responses[status]?.content ?? {}), status).toEqual(['application/json']);
    }
  });

  it('serves a reference page that loads only same-origin scripts under the strict CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    for (const src of scripts) {
      expect(src.startsWith(`${DOCS_PREFIX}/`), src).toBe(true);
      const asset = await t.app.inject({ method: 'GET', url: src });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers['content-type'], src).toMatch(/javascript/);
    }
  });
});
