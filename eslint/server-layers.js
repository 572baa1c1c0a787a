import { lintedFile, relativeImports } from './relative-imports.js';

/**
 * Which folder of server/ may import which: an allow-list, so a new dependency is a decision written here, not an
 * accident. Folders are listed lowest first; a folder may import only folders listed before it (the test in
 * test/unit/lint-boundaries.test.ts checks that), so there can be no cycle between folders. Every folder may
 * import contract/, shared/ and packages; the files at server/'s root (app.ts, context.ts, config.ts, main.ts,
 * job-handlers.ts, upkeep.ts, seed.ts) wire everything together and may import anything, while the folders
 * import those only as types (the AppContext and Config they are handed).
 *
 * services/ holds one folder per domain and, at its root, the kernel all of them share (domain errors, paging).
 */
export const SERVER_LAYERS = {
  lib: [],
  llm: [],
  db: ['lib'],
  services: [],
  platform: ['lib', 'llm', 'db', 'services'],
  'services/conversations': ['lib', 'llm', 'db', 'services', 'platform'],
  'services/organisation': ['lib', 'llm', 'db', 'services', 'platform'],
  'services/identity': ['lib', 'llm', 'db', 'services', 'platform', 'services/organisation'],
  'services/documents': ['lib', 'llm', 'db', 'services', 'platform', 'services/conversations', 'services/organisation'],
  'services/chat': [
    'lib', 'llm', 'db', 'services', 'platform', 'services/conversations', 'services/organisation', 'services/documents',
  ],
  'services/clients': ['lib', 'llm', 'db', 'services', 'platform', 'services/organisation'],
  'services/contact': ['lib', 'db', 'services', 'platform', 'services/identity'],
  http: ['lib', 'db', 'services', 'platform', 'services/identity'],
  routes: [
    'lib', 'services', 'platform', 'http',
    'services/conversations', 'services/organisation', 'services/identity', 'services/documents', 'services/chat',
    'services/clients', 'services/contact',
  ],
};

/** The layer of a repo-relative path under server/ (a folder of SERVER_LAYERS), 'root' for server/'s own files. */
export function serverLayer(file) {
  const parts = file.split('/');
  if (parts[0] !== 'server') return null;
  if (parts.length === 2) return 'root';
  if (parts[1] === 'services') return parts.length > 3 ? `services/${parts[2]}` : 'services';
  return parts[1];
}

export const serverLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder of server/ imports only the folders eslint/server-layers.js allows it.' },
    messages: {
      notAllowed: 'server/{{from}}/ may not import server/{{to}}/ (allowed: {{allowed}}). See eslint/server-layers.js.',
      unknown: 'server/{{from}}/ is not in eslint/server-layers.js: add it with the folders it may import.',
      root: "server/{{from}}/ imports server/{{to}} only as a type (import type): the root files wire the app together.",
    },
    schema: [],
  },
  create(context) {
    const from = serverLayer(lintedFile(context));
    if (!from || from === 'root') return {};
    if (!(from in SERVER_LAYERS)) {
      return { Program: (node) => context.report({ node, messageId: 'unknown', data: { from } }) };
    }
    return relativeImports(context, ({ source, target, typeOnly }) => {
      const to = serverLayer(target) ?? (target === 'server' ? 'root' : null);
      if (!to || to === from) return;
      if (to === 'root') {
        if (!typeOnly) context.report({ node: source, messageId: 'root', data: { from, to: target.split('/').pop() } });
      } else if (!SERVER_LAYERS[from].includes(to)) {
        context.report({ node: source, messageId: 'notAllowed', data: { from, to, allowed: SERVER_LAYERS[from].join(', ') || 'none' } });
      }
    });
  },
};
