/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appLocalePlugin } from './scripts/app-locale-plugin.js';
import { classicChunksPlugin } from './scripts/classic-chunks-plugin.js';
import { prerenderPlugin } from './scripts/prerender-plugin.js';

// The router base path comes from configuration (spec): BASE_PATH at build time, '/' by default.
const base = process.env.BASE_PATH ?? '/';
const apiTarget = process.env.API_URL ?? 'http://localhost:8080';

export default defineConfig({
  base,
  plugins: [
    appLocalePlugin(),
    react(),
    tailwindcss(),
    // The chunks become classic scripts, whose compiled code browsers keep between visits (before prerender, which
    // reads the entry from index.html as this leaves it).
    classicChunksPlugin(),
    // /login is rendered into dist/login.html at build time: it paints before the JavaScript runs, then hydrates.
    prerenderPlugin(),
    VitePWA({
      // autoUpdate: the new worker takes over at once and every open page reloads itself (spec section 1).
      registerType: 'autoUpdate',
      injectRegister: false,
      filename: 'sw.js',
      scope: base,
      includeAssets: ['icons/favicon.svg', 'icons/apple-touch-icon.png', 'robots.txt'],
      manifest: {
        id: base,
        name: 'Tanya — AI assistant',
        short_name: 'Tanya',
        description: 'Ask Tanya: the AI chat assistant for your organisation.',
        start_url: base,
        scope: base,
        display: 'standalone',
        background_color: '#F9F9F9',
        theme_color: '#DEC84E',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // Other navigations get the app shell; /login gets the precached prerendered login.html (Workbox's
        // cleanURLs looks up '/login.html' before the fallback applies), and / the landing page's landing.html.
        navigateFallback: 'index.html',
        // '/' is the prerendered landing page, as the server answers it.
        directoryIndex: 'landing.html',
        // API calls and SSO redirects must always reach the server.
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  resolve: {
    // @xstate/react imports the React 17 shims of useSyncExternalStore; React 19 has the hook itself, and the
    // shim's fallback would only add to every route's JS (the login route's budget included).
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
      // zod as the SPA imports it: jitless before any schema exists (see src/zod-jitless.ts). Every importer goes
      // through it, so no entry point has to remember to import it first, and the routes that never parse (the
      // login route among them) load no zod at all.
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    target: 'es2022',
    // No module preloads: the chunks are classic scripts, fetched by the chunk loader (classic-chunks-plugin.ts).
    modulePreload: false,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Required by inlining below; the entry's unused exports may go (nothing imports the entry).
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // Rolldown splits every module shared by two lazy screens into a chunk of its own: the chat screen
          // loaded 35 files, each a fetch, a compile task and a preload tag, about 50 ms of a 1,000-message
          // conversation's opening (npm run bench -- open). Small shared chunks are copied into the chunks that
          // use them instead (a shared registry keeps one module state), leaving 5 files; no screen loads code it
          // did not load before. Style modules stay in files of their own (rolldown's advice for Vite builds).
          experimentalInlineCommonChunks: { maxSize: 30 * 1024, exclude: /\.css(\?|$)/ },
          // Everything the entry imports statically, in one chunk: every screen loads all of it before it runs. Left
          // to itself rolldown cut it into five files by which lazy screens share which part (react-aria's button,
          // xstate, the API client), and inlining copied React itself into two of them: the login route downloaded
          // React twice and five gzip streams instead of one (159.5 -> 153.6 KB gzip, `npm run bench -- login`).
          groups: [{ name: 'boot', tags: ['$initial'], test: (id) => !/\.css(\?|$)/.test(id) }],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
