import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { closureOf, ENTRY_TAG, PRELOAD_TAGS } from './classic-chunks-plugin.js';
import { loadAppAfterPaint } from './prerender-loader.js';
import { resolveSuspendedBoundaries } from './prerender-boundaries.js';
import { preloadSignedInScreen } from './prerender-route-preload.js';

interface PrerenderedRoute {
  /** The router path, as in src/app/routes.tsx. */
  path: string;
  /** The HTML file written into the build output. */
  file: string;
  /** The route's screen module: its chunks are preloaded with the app's. */
  screen: string;
}

/** The public first screens written into their own HTML at build time. */
const PRERENDERED: PrerenderedRoute[] = [
  { path: '/login', file: 'login.html', screen: 'src/features/auth/login-page.tsx' },
  { path: '/', file: 'landing.html', screen: 'src/features/landing/landing-page.tsx' },
];

/**
 * Signed-in screens whose code index.html preloads for a visitor with a session, beside the entry's download
 * (prerender-route-preload.ts): opening a conversation in a new tab no longer waits for the entry to run first.
 */
const SIGNED_IN_SCREENS: Array<Omit<PrerenderedRoute, 'file'>> = [
  { path: '/chat', screen: 'src/features/chat/chat-page.tsx' },
  { path: '/home', screen: 'src/features/home/home-page.tsx' },
  { path: '/profile', screen: 'src/features/profile/profile-page.tsx' },
];
/** The spec's local storage key of the access token (src/session/session-storage.ts). */
const TOKEN_STORAGE_KEY = 'token';

/** `{ "<path>": "<file>" }` in the build output: the server serves each file for its path (server/http/spa.ts). */
const PRERENDER_MANIFEST = 'prerendered.json';

const RENDER_ENTRY = 'src/app/render-static.tsx';

const EMPTY_ROOT = '<div id="root"></div>';
/**
 * The browser paints nothing until the parser has passed the prerendered screen (`<link rel=expect>`, Chrome 124+;
 * others ignore it). A page arriving in pieces was otherwise painted with half its card now and then, and the rest
 * then pushed the vertically centred card up: a layout shift of 0.07 to 0.2 in about 1 of 8 Lighthouse runs.
 */
const SCREEN_END_ID = 'prerendered-end';
const RENDER_WHOLE_SCREEN = `<link rel="expect" href="#${SCREEN_END_ID}" blocking="render">`;
/** Outside the root: the app's hydration never sees it. */
const SCREEN_END = `<span id="${SCREEN_END_ID}" hidden></span>`;
const STYLESHEET = /<link rel="stylesheet" crossorigin href="([^"]+)">/;

type RenderRoute = (path: string) => Promise<string>;

/**
 * After the client bundle is generated: builds src/app/render-static.tsx for Node, renders each route of
 * PRERENDERED into a copy of index.html and emits it with the bundle, so `vite build --outDir x` writes it into x
 * and the service worker (generated after the bundle is written) precaches it. In the copy, the stylesheet is
 * inlined (the first paint waits for no second request), and the script tags are replaced by one small loader
 * (prerender-loader.ts) that requests the app, and the route's chunks, only after that paint. index.html itself
 * gains one small script (prerender-route-preload.ts): a signed-in visitor's screen code is preloaded beside the entry.
 */
export function prerenderPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'tanya:prerender',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    // 'post', as classic-chunks-plugin.ts's (listed before this one, so it still runs first).
    generateBundle: { order: 'post', async handler(_, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return this.error('prerender: the bundle has no index.html');
      const template = String(html.source);
      // index.html as classic-chunks-plugin.ts left it: the chunk loader's tag names the entry chunk.
      const [, chunkLoader, entry] = ENTRY_TAG.exec(template) ?? [];
      if (!chunkLoader || !entry || !template.includes(EMPTY_ROOT)) return this.error('prerender: index.html lacks its entry script or an empty root');
      const css = stylesheetOf(bundle, template, config.base);
      const shell = template
        .replace(ENTRY_TAG, '')
        .replace(PRELOAD_TAGS, '')
        .replace(STYLESHEET, () => `<style>${css}</style>`);

      const renderer = await buildRenderer(config);
      try {
        for (const route of PRERENDERED) {
          const markup = resolveSuspendedBoundaries(await renderer.render(route.path));
          const preloads = chunkClosure(bundle, [path.resolve(config.root, route.screen)]).map((file) => `${config.base}${file}`);
          const loaderSource = `(${loadAppAfterPaint.toString()})(${JSON.stringify(chunkLoader)}, ${JSON.stringify(entry)}, ${JSON.stringify(preloads)});\n`;
          const loader = this.getFileName(this.emitFile({ type: 'asset', name: `${path.parse(route.file).name}-loader.js`, source: loaderSource }));
          const source = shell
            .replace('</head>', `  ${RENDER_WHOLE_SCREEN}\n  <script defer src="${config.base}${loader}"></script>\n  </head>`)
            .replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>${SCREEN_END}`);
          this.emitFile({ type: 'asset', fileName: route.file, source });
        }
        const manifest = Object.fromEntries(PRERENDERED.map((r) => [r.path, r.file]));
        this.emitFile({ type: 'asset', fileName: PRERENDER_MANIFEST, source: `${JSON.stringify(manifest, null, 2)}\n` });
      } finally {
        renderer.dispose();
      }

      // index.html itself (the prerendered pages above were made from it before this): the signed-in screens' preloader.
      const entryChunk = bundle[entry];
      if (entryChunk?.type !== 'chunk' || !entryChunk.facadeModuleId) return this.error(`prerender: no entry chunk ${entry}`);
      const loadedWithEntry = new Set(chunkClosure(bundle, [entryChunk.facadeModuleId]));
      const screens = Object.fromEntries(
        SIGNED_IN_SCREENS.map((s) => [
          s.path,
          withCss(bundle, chunkClosure(bundle, [path.resolve(config.root, s.screen)]).filter((file) => !loadedWithEntry.has(file))).map(
            (file) => `${config.base}${file}`,
          ),
        ]),
      );
      const preloadSource = `(${preloadSignedInScreen.toString()})(${JSON.stringify(config.base)}, ${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(screens)});\n`;
      const preloader = this.getFileName(this.emitFile({ type: 'asset', name: 'route-preload.js', source: preloadSource }));
      // Before the entry's tag, as a classic script that holds the parser: it runs at once, before the entry is compiled
      // and run. (As an async module it ran only after that, in a trace ~300 ms later on a busy machine, and the
      // screen's chunks were asked for no sooner than the router would have.) It is a tiny immutable asset, from the
      // HTTP cache on a return visit; the CSP (script-src 'self') rules out inlining it.
      html.source = template.replace(ENTRY_TAG, (tag) => `\n    <script src="${config.base}${preloader}"></script>${tag}`);
    } },
  };
}

/** Builds the render entry for Node into a throw-away directory beside node_modules (its imports resolve there). */
async function buildRenderer(config: ResolvedConfig): Promise<{ render: RenderRoute; dispose(): void }> {
  const cache = path.join(config.root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(path.join(cache, 'tanya-prerender-'));
  const dispose = () => rmSync(outDir, { recursive: true, force: true });
  try {
    await build({
      configFile: false,
      root: config.root,
      base: config.base,
      mode: config.mode,
      logLevel: 'warn',
      // Stylesheets mean nothing to the render (the page links the client build's CSS), and without the Tailwind
      // plugin their @apply rules would only raise warnings.
      plugins: [react(), ignoreStylesheets()],
      build: {
        ssr: RENDER_ENTRY,
        outDir,
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { output: { entryFileNames: 'render-static.mjs' } },
      },
    });
    // A fresh directory per build: Node's module cache never hands back an earlier build's render.
    const { renderRoute } = (await import(pathToFileURL(path.join(outDir, 'render-static.mjs')).href)) as { renderRoute: RenderRoute };
    return { render: renderRoute, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/** The text of the stylesheet index.html links (the app's global CSS). */
function stylesheetOf(bundle: Rolldown.OutputBundle, html: string, base: string): string {
  const href = STYLESHEET.exec(html)?.[1];
  const asset = href && bundle[href.slice(base.length)];
  if (!asset || asset.type !== 'asset') throw new Error('prerender: index.html links no stylesheet of the bundle');
  return String(asset.source);
}

function ignoreStylesheets(): Plugin {
  return {
    name: 'tanya:prerender-ignore-css',
    enforce: 'pre',
    load: (id) => (/\.css(\?|$)/.test(id) ? '' : undefined),
  };
}

/** The chunk files and, after them, the stylesheets those chunks import (the router waits for both). */
function withCss(bundle: Rolldown.OutputBundle, files: string[]): string[] {
  const css = new Set<string>();
  for (const file of files) {
    const chunk = bundle[file];
    if (chunk?.type === 'chunk') chunk.viteMetadata?.importedCss.forEach((c) => css.add(c));
  }
  return [...files, ...css];
}

/** The files of the chunks the given modules need (their own and every chunk they import), entry chunks included. */
function chunkClosure(bundle: Rolldown.OutputBundle, moduleIds: string[]): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const files = new Set(chunks.map((c) => c.fileName));
  const imports = Object.fromEntries(chunks.map((c) => [c.fileName, c.imports.filter((f) => files.has(f))]));
  const needed = new Set<string>();
  for (const id of moduleIds) {
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`prerender: no chunk for ${id}`);
    closureOf(chunk.fileName, imports, needed);
  }
  return [...needed];
}
