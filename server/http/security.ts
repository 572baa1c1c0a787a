import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The one inline script index.html has: it shows the person's cached theme choice before the first paint. Allowed
 * by its hash, not by 'unsafe-inline' (test/unit/csp-inline-script.test.ts checks the hash against index.html).
 */
export const THEME_SCRIPT_HASH = "'sha256-wsmnxD6kqdZZ/V2wQ85d92sMux2lvh7NN1y5/Y5SS5c='";

/**
 * Where the landing page's reCAPTCHA widget comes from: the configured script's origin, and for Google's own widget
 * the origins it loads its parts and its frame from. Nothing else of anyone else's runs on our pages.
 */
export function recaptchaSources(scriptUrl: string | undefined): string[] {
  if (!scriptUrl) return [];
  const origin = new URL(scriptUrl).origin;
  return origin === 'https://www.google.com' ? [origin, 'https://www.gstatic.com'] : [origin];
}

/** CSP for the SPA: own scripts only (no eval), inline styles allowed, images also from data:/blob: (previews). */
function optionsFor(recaptcha: string[]): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", THEME_SCRIPT_HASH, ...recaptcha],
        // Frames fall back to default-src ('self') unless the widget needs its own.
        ...(recaptcha.length > 0 ? { frameSrc: ["'self'", ...recaptcha] } : {}),
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
  };
}

/**
 * The headers helmet sets for these options, worked out once. They depend on nothing in the request (no nonces, no
 * functions among the directives), and @fastify/helmet rebuilt helmet's middleware, CSP parsing included, on every
 * request: about a tenth of a millisecond of every send's time to first token.
 */
export function securityHeaders(options: HelmetOptions = optionsFor([])): { set: Record<string, string>; removed: string[] } {
  const set: Record<string, string> = {};
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string) {
      set[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      removed.push(name.toLowerCase());
    },
  };
  helmet(options)({} as never, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return { set, removed };
}

/** Every answer (API, SPA, errors and 404s alike) carries the security headers. */
export function installSecurityHeaders(app: FastifyInstance, recaptchaScriptUrl?: string): void {
  const { set, removed } = securityHeaders(optionsFor(recaptchaSources(recaptchaScriptUrl)));
  const entries = Object.entries(set);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of entries) raw.setHeader(name, value);
    for (const name of removed) raw.removeHeader(name);
    done();
  });
}
