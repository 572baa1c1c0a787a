import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** Files the service worker and the browser must re-check on every load, served from the root. */
const ROOT_WORKER_FILE = /^(sw\.js|workbox-[\w.-]+\.js|registerSW\.js)$/;

/** `/api`, `/api/...`, `/api?...` in any letter case: the whole /api space is the API's, never the SPA's. */
const API_SPACE = /^\/api(?:[/?#]|$)/i;

/** Whether a request URL belongs to the API, also when spelled with percent-escapes (`/%61pi/...`). */
export function isApiPath(url: string): boolean {
  if (API_SPACE.test(url)) return true;
  try {
    return API_SPACE.test(decodeURI(url));
  } catch {
    return false;
  }
}

function setCacheHeaders(reply: FastifyReply, root: string, filePath: string): void {
  const rel = path.relative(root, filePath).split(path.sep).join('/');
  if (rel.startsWith('assets/')) {
    reply.header('Cache-Control', IMMUTABLE);
    return;
  }
  reply.header('Cache-Control', REVALIDATE);
  if (ROOT_WORKER_FILE.test(rel)) reply.header('Service-Worker-Allowed', '/');
}

/** The build's list of prerendered pages (`{ "/login": "login.html" }`, written by scripts/prerender-plugin.ts). */
const PRERENDER_MANIFEST = 'prerendered.json';

function readPrerendered(root: string): Map<string, string> {
  const file = path.join(root, PRERENDER_MANIFEST);
  if (!fs.existsSync(file)) return new Map();
  const entries = Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>);
  return new Map(entries.filter(([, page]) => fs.existsSync(path.join(root, page))));
}

/** The path of a request URL without query and trailing slash ('/login/?a=1' -> '/login'). */
function routePath(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0];
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * Serves the built SPA: files from STATIC_DIR; for a prerendered route (e.g. /login) its own HTML, which paints
 * before the JavaScript runs; and index.html for any other GET outside /api (history fallback).
 * Unknown /api paths answer a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, staticDir: string): Promise<void> {
  const root = path.resolve(staticDir);
  const hasIndex = fs.existsSync(path.join(root, 'index.html'));
  const prerendered = readPrerendered(root);

  if (hasIndex) {
    await app.register(fastifyStatic, {
      root,
      cacheControl: false,
      setHeaders: (reply, filePath) => setCacheHeaders(reply, root, filePath),
    });
  }

  // '/' is the landing page's own prerendered HTML, not the directory's index.html (the app shell).
  const home = prerendered.get('/');
  if (hasIndex && home) {
    app.get('/', (_request, reply) => {
      reply.header('Cache-Control', REVALIDATE);
      return reply.sendFile(home);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (isApiPath(url)) {
      return reply.code(404).send(errorBody('Not found'));
    }
    const method = request.method;
    // Missing hashed assets must stay 404: answering HTML for a script breaks the page in confusing ways.
    if (!hasIndex || (method !== 'GET' && method !== 'HEAD') || url.startsWith('/assets/')) {
      const hint = hasIndex ? 'Not found' : `The web app is not built yet: run \`npm run build\` (looked in ${root}).`;
      return reply.code(404).type('text/plain; charset=utf-8').send(hint);
    }
    reply.header('Cache-Control', REVALIDATE);
    return reply.sendFile(prerendered.get(routePath(url)) ?? 'index.html');
  });
}
