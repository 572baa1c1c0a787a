import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Import boundaries from ARCHITECTURE.md, enforced where it is cheap.
const noImport = (...groups) => ['error', { patterns: groups.map((g) => ({ group: g.group, message: g.message })) }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'dev-dist/**'] },
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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
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
    rules: {
      'no-restricted-imports': noImport(
        { group: ['**/src/**', 'react', 'react-dom', 'react-*'], message: 'server/ never imports src/ or React.' },
      ),
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport(
        { group: ['**/src/**', '**/server/**', 'react', 'react-dom', 'ofetch', '@microsoft/*'], message: 'machines/ import only xstate and contract/.' },
      ),
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': noImport(
        { group: ['**/src/**', '**/server/**', '**/machines/**', 'xstate', 'react'], message: 'contract/ imports only zod.' },
      ),
    },
  },
);
