import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { lintedFile, relativeImports } from './eslint/relative-imports.js';
import { serverLayers } from './eslint/server-layers.js';

// Import boundaries from ARCHITECTURE.md, enforced where it is cheap.
const noImport = (...groups) => ['error', { patterns: groups.map((g) => ({ group: g.group, message: g.message })) }];

const SERVER_NOT_SRC = { group: ['**/src/**', 'react', 'react-dom', 'react-*'], message: 'server/ never imports src/ or React.' };

/**
 * A feature of the SPA (src/features/<a>/) never imports another feature (src/features/<b>/) nor the app shell
 * (src/app/): shared pieces move to src/ui or src/lib. Relative import paths are resolved against the importing
 * file, so `../chat/x` from src/features/auth/ is caught however it is spelled.
 */
const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A feature imports neither another feature nor src/app/.' },
    messages: {
      otherFeature: "src/features/{{from}}/ does not import src/features/{{to}}/: move what both need to src/ui or src/lib.",
      app: 'src/features/ does not import src/app/: the app shell imports features, never the other way round.',
    },
    schema: [],
  },
  create(context) {
    const own = /^src\/features\/([^/]+)\//.exec(lintedFile(context));
    if (!own) return {};
    return relativeImports(context, ({ source, target }) => {
      const feature = /^src\/features\/([^/]+)(\/|$)/.exec(target);
      if (feature && feature[1] !== own[1]) {
        context.report({ node: source, messageId: 'otherFeature', data: { from: own[1], to: feature[1] } });
      } else if (target === 'src/app' || target.startsWith('src/app/')) {
        context.report({ node: source, messageId: 'app' });
      }
    });
  },
};

const tanya = { rules: { 'feature-boundaries': featureBoundaries, 'server-layers': serverLayers } };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'playwright-report-staging/**', 'dev-dist/**', 'dist-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, tanya },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'tanya/feature-boundaries': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'react-aria-components', message: "Import per component ('react-aria-components/Button'): the barrel pulls code into the login chunk." }],
          patterns: [{ group: ['**/server/**'], message: 'src/ never imports server/.' }],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    plugins: { tanya },
    rules: { 'no-restricted-imports': noImport(SERVER_NOT_SRC), 'tanya/server-layers': 'error' },
  },
  {
    files: ['server/services/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport(SERVER_NOT_SRC, {
        group: ['**/http/**', '**/http'],
        message: 'Services never import server/http/: throw a domain error (server/services/errors.ts) instead.',
      }),
    },
  },
  // Kysely code lives in server/db/ only. Services may name its types (to pass a handle or a transaction along);
  // routes and http not even that. Server tests read the database directly to check what was stored.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['server/db/**', 'test/server/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', allowTypeImports: true, message: 'Kysely code lives in server/db/ (repositories, server/db/transaction.ts).' }] },
      ],
    },
  },
  {
    files: ['server/routes/**/*.ts', 'server/http/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', message: 'Routes and http never import kysely: call a service.' }] },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport(
        { group: ['**/src/**', '**/server/**', 'react', 'react-dom', 'ofetch', '@microsoft/*'], message: 'machines/ import only xstate, contract/ and shared/.' },
      ),
    },
  },
  // shared/: pure logic that the SPA, the machines, the server and contract/'s schemas all apply (markers, markdown
  // links, tags, word counts): it imports nothing of ours, so anything may import it.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport({
        group: ['**/src/**', '**/server/**', '**/machines/**', '**/contract/**', 'xstate', 'react', 'zod'],
        message: 'shared/ imports nothing of ours (nor zod or xstate): contract/ and the rest import it.',
      }),
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport(
        { group: ['**/src/**', '**/server/**', '**/machines/**', 'xstate', 'react'], message: 'contract/ imports only zod and shared/.' },
      ),
      // No barrels: import from the file that defines the thing (barrels pulled chat-only code into the login chunk).
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'No barrel re-exports in contract/: import from the defining file.' },
        { selector: 'ExportNamedDeclaration[source]', message: 'No barrel re-exports in contract/: import from the defining file.' },
      ],
    },
  },
);
