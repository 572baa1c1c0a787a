import { transformSync } from 'esbuild';
import type { Plugin, ResolvedConfig, Rolldown } from 'vite';
import { installChunkLoader } from './chunk-loader.js';

/**
 * Why the build's chunks are classic scripts and not module scripts: on a returning visitor's load, Chromium reads
 * V8's compiled code of a classic script back from its code cache, but parses and compiles a module script from
 * source every time (Chromium 156: `v8.produceModuleCache` on the second load, never a consumed cache after). With
 * every function compiled eagerly (the `allFunctionsCalledOnLoad` hint, Chrome 136+), that cache holds all of a
 * chunk's code, so a return visit compiles almost nothing: opening a 1,000-message conversation took 58 ms less
 * (median of 20 paired loads, `npx tsx test/bench/open-ab.ts`), and main-thread compiling fell from ~2,500 functions
 * to ~16 per load. The price is paid where there is no cache yet (a first visit after a release, a private window):
 * every function is compiled, used or not (`npm run bench -- open` prints that figure too). Browsers without the
 * hint or the cache run the same scripts, compiled as usual.
 *
 * How: after Vite has built its ES chunks, each one is turned into CommonJS by esbuild and wrapped in a call that
 * hands it to the loader (chunk-loader.ts, an asset of its own): `__tanyaChunks.define(file, function
 * (__tanyaRequire, __tanyaModule, __tanyaMeta) {...})`. Its dynamic `import("./x.js")` become
 * `__tanyaChunks.import("assets/x.js")` and `import.meta` the chunk's `__tanyaMeta`. The HTML loads the loader with `data-entry` naming the entry chunk, and preloads
 * the entry's chunks so they download while the document is parsed. Vite preloads only stylesheets
 * (`build.modulePreload: false`): the loader fetches a chunk's imports itself, side by side.
 */
export function classicChunksPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'tanya:classic-chunks',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    config: () => ({
      build: {
        modulePreload: false,
        rolldownOptions: { output: { entryFileNames: CHUNK_FILE_NAMES, chunkFileNames: CHUNK_FILE_NAMES } },
      },
    }),
    configResolved(resolved) {
      config = resolved;
    },
    // After every other plugin's generateBundle: Vite's import analysis fills each dynamic import's dependency list
    // (the stylesheets of a lazily loaded screen) by finding its `import("./x.js")`, which this rewrites away. Run
    // before it, every lazy chunk's CSS was dropped and replies showed without their styles (issue 28).
    generateBundle: { order: 'post', handler(_, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const files = new Set(chunks.map((c) => c.fileName));
      const imports: Record<string, string[]> = {};
      for (const chunk of chunks) {
        imports[chunk.fileName] = chunk.imports.filter((f) => files.has(f));
        chunk.code = classicChunk(chunk, files, (message) => this.error(`classic chunks: ${chunk.fileName}: ${message}`));
      }
      // Minified: every page downloads it, and the function's text carries its comments.
      const loaderSource = transformSync(`(${installChunkLoader.toString()})(${JSON.stringify(config.base)}, ${JSON.stringify(imports)});`, {
        loader: 'js',
        target: 'es2022',
        minify: true,
      }).code;
      const loader = this.getFileName(this.emitFile({ type: 'asset', name: 'chunk-loader.js', source: loaderSource }));

      const html = bundle['index.html'];
      if (html?.type !== 'asset') return this.error('classic chunks: the bundle has no index.html');
      const template = String(html.source);
      const entry = MODULE_ENTRY.exec(template)?.[1];
      const entryFile = entry?.slice(config.base.length);
      if (!entryFile || !files.has(entryFile)) return this.error('classic chunks: index.html lacks the entry chunk\'s script');
      html.source = template.replace(MODULE_ENTRY, () => {
        const preloads = [...closureOf(entryFile, imports)].map((file) => `\n    ${preloadTag(`${config.base}${file}`)}`).join('');
        return `${preloads}\n    ${entryTag(`${config.base}${loader}`, entryFile)}`;
      });
    } },
  };
}

/**
 * The chunks' hashes are those of their ES code, computed before it is rewritten here, so the names carry the
 * format too: a browser holding an earlier build's module chunk under the same hash (cached for a year, immutable)
 * would otherwise run it as a classic script. Change `c1` when the wrapping changes.
 */
const CHUNK_FILE_NAMES = 'assets/[name]-[hash].c1.js';

/** The entry script Vite writes into index.html. */
const MODULE_ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

/** The tag that loads the loader, which then loads and runs `entryFile`. */
function entryTag(loaderUrl: string, entryFile: string): string {
  return `<script defer src="${loaderUrl}" data-entry="${entryFile}"></script>`;
}
/** Matches entryTag's output: 1 the loader's URL, 2 the entry chunk's file. */
export const ENTRY_TAG = /\s*<script defer src="([^"]+)" data-entry="([^"]+)"><\/script>/;

/** The early download of a chunk (the loader's script tag for it reuses the response). */
function preloadTag(url: string): string {
  return `<link rel="preload" as="script" href="${url}">`;
}
/** Matches every preloadTag. */
export const PRELOAD_TAGS = /\s*<link rel="preload" as="script" href="[^"]+">/g;

/** The chunk files `file` needs: itself and everything it imports, however deep, imports first. */
export function closureOf(file: string, imports: Record<string, string[]>, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  for (const dep of imports[file] ?? []) closureOf(dep, imports, into);
  return into.add(file);
}

// V8's magic comment: compile every function of the file at once, on the background thread that parses it, so the
// code cache made after its first run holds them all. It must be the file's first line.
const COMPILE_ALL = '//# allFunctionsCalledOnLoad';

/** An ES chunk as a classic script that defines it with the loader. */
function classicChunk(chunk: Rolldown.OutputChunk, files: Set<string>, fail: (message: string) => never): string {
  const { code, warnings } = transformSync(chunk.code, {
    format: 'cjs',
    loader: 'js',
    // The chunks are already es2022: nothing is lowered, only the module syntax rewritten. Minified, so each use of
    // an import (`(0,import_main_Bx1.t)(...)`, named after its file) costs a few bytes, not thirty.
    target: 'es2022',
    define: { 'import.meta': META },
    minify: true,
    charset: 'utf8',
  });
  if (warnings.length > 0) fail(warnings.map((w) => w.text).join('; '));
  const folder = chunk.fileName.slice(0, chunk.fileName.lastIndexOf('/') + 1);
  const sibling = (specifier: string) => specifier.startsWith('./') && files.has(folder + specifier.slice(2));

  // esbuild's CommonJS imports its dependencies with `require("./x.js")` and exports with `module.exports=`. Those are
  // given the loader's names; any other `require` or `module` in the code stays the page's (undefined), as in a module.
  let body = code.replace(/(?<![\w$.])require\("([^"]*)"\)/g, (call, specifier: string) => {
    if (specifier.startsWith('.') && !sibling(specifier)) fail(`imports ${specifier}, which is not a chunk of the build beside it`);
    return sibling(specifier) ? `${REQUIRE}(${JSON.stringify(specifier)})` : call;
  });
  const exportsAt = [...body.matchAll(/(?<![\w$.])module\.exports=/g)];
  if (exportsAt.length !== (chunk.exports.length > 0 ? 1 : 0)) fail(`${exportsAt.length} assignments to module.exports`);
  body = body.replace(/(?<![\w$.])module\.exports=/, `${MODULE}.exports=`);

  let dynamic = 0;
  body = body.replace(/(?<![\w$.])import\((["'`])(\.\/[^"'`]+)\1\)/g, (call, _quote, specifier: string) => {
    if (!sibling(specifier)) return call;
    dynamic++;
    return `__tanyaChunks.import(${JSON.stringify(folder + specifier.slice(2))})`;
  });
  const expected = chunk.dynamicImports.filter((f) => files.has(f)).length;
  if (dynamic < expected) fail(`${expected} dynamic imports of chunks, ${dynamic} rewritten`);
  // Module code is strict; the factory is called without a `this`, which module code has none of either.
  return `${COMPILE_ALL}\n__tanyaChunks.define(${JSON.stringify(chunk.fileName)},function(${REQUIRE},${MODULE},${META}){"use strict";${body}\n});\n`;
}

/** The factory's parameters (chunk-loader.ts passes them in this order): names no chunk uses for anything else. */
const REQUIRE = '__tanyaRequire';
const MODULE = '__tanyaModule';
const META = '__tanyaMeta';
