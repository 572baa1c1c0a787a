import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** react-aria's module that picks its locale from the browser, and the importer it is reached from. */
const ORIGINAL = './useDefaultLocale.mjs';
const IMPORTER = /[\\/]react-aria[\\/]dist[\\/]private[\\/]i18n[\\/]I18nProvider\.mjs$/;
const REPLACEMENT = fileURLToPath(new URL('../src/lib/app-locale.ts', import.meta.url));

/**
 * Gives react-aria Tanya's interface language instead of the browser's (src/lib/app-locale.ts says why). A build
 * that bundles react-aria without passing here fails: react-aria moved the module, and this must follow it. The
 * dev server's pre-bundled dependencies do not pass through plugins: there react-aria keeps the browser's language.
 */
export function appLocalePlugin(): Plugin {
  let building = false;
  let bundlesReactAria = false;
  let replaced = false;
  return {
    name: 'tanya-app-locale',
    enforce: 'pre',
    configResolved(config) {
      building = config.command === 'build';
    },
    resolveId(source, importer) {
      if (importer && /[\\/]react-aria[\\/]dist[\\/]/.test(importer)) bundlesReactAria = true;
      if (source !== ORIGINAL || !importer || !IMPORTER.test(importer)) return null;
      replaced = true;
      return REPLACEMENT;
    },
    buildEnd(error) {
      if (!error && building && bundlesReactAria && !replaced) {
        this.error(`react-aria's ${ORIGINAL} was not imported from I18nProvider.mjs: update scripts/app-locale-plugin.ts`);
      }
    },
  };
}
