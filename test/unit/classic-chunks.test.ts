import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classicChunksPlugin, ENTRY_TAG } from '../../scripts/classic-chunks-plugin';

// The build's chunks run as classic scripts through the chunk loader (scripts/classic-chunks-plugin.ts): a small app
// is built with the plugin and its output run in a page stand-in (scripts appended to the head are run, or fail
// like a lost download), to check that the chunks behave as the modules they were: import order, live bindings
// between chunks, dynamic import(), import.meta.url, and globals left alone.

const FIXTURE: Record<string, string> = {
  'index.html': '<!doctype html><html><head></head><body><script type="module" src="/src/main.js"></script></body></html>',
  'src/shared.js': `
    globalThis.log.push('shared runs');
    export let counter = 0;
    export function bump() { counter++; }
  `,
  'src/main.js': `
    import { bump, counter } from './shared.js';
    globalThis.log.push('main runs');
    bump();
    // A direct eval sees the scope the chunk's code runs in: none of the loader's names may show through.
    const scoped = ['req' + 'uire', 'mod' + 'ule', 'exp' + 'orts'].map((name) => eval(\`typeof \${name}\`));
    globalThis.log.push(['main sees', counter, scoped, new URL(import.meta.url).pathname]);
    globalThis.loadLazy = () => import('./lazy.js');
    globalThis.loadBroken = () => import('./broken.js');
  `,
  'src/broken.js': `
    globalThis.log.push('broken runs');
    throw new Error('broken at load');
  `,
  'src/lazy.js': `
    import { bump, counter } from './shared.js';
    export const seenOnLoad = counter;
    export function bumpAndRead() { bump(); return counter; }
    export default 'the default export';
  `,
};

interface Page {
  log: unknown[];
  loadLazy(): Promise<{ seenOnLoad: number; bumpAndRead(): number; default: string }>;
  loadBroken(): Promise<unknown>;
  /** Script URLs whose next download fails. */
  failNext: Set<string>;
  requested: string[];
}

let root: string;
let outDir: string;

beforeAll(async () => {
  // Beside node_modules, so the fixture's build resolves Vite's own imports; a fresh clone has no .cache yet.
  const cache = path.join(process.cwd(), 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  root = mkdtempSync(path.join(cache, 'classic-chunks-'));
  for (const [file, source] of Object.entries(FIXTURE)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  outDir = path.join(root, 'dist');
  await build({ configFile: false, root, logLevel: 'silent', plugins: [classicChunksPlugin()], build: { outDir, minify: false } });
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** index.html's scripts run in a fresh global scope, as a page load. */
function openPage(): Page {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const [, loaderUrl, entry] = ENTRY_TAG.exec(html) ?? [];
  const page = { log: [] as unknown[], failNext: new Set<string>(), requested: [] as string[] };
  type Script = { src: string; dataset: Record<string, string>; onload?: () => void; onerror?: () => void; remove(): void };
  const document = {
    baseURI: 'https://tanya.test/',
    currentScript: null as Script | null,
    createElement: (): Script => ({ src: '', dataset: {}, remove: () => undefined }),
    head: { append: (script: Script) => setTimeout(() => runScript(script)) },
  };
  // window: where Vite's preload helper reports a failed import (`vite:preloadError`) before passing it on.
  const context = vm.createContext({ document, window: new EventTarget(), Event, log: page.log, URL, setTimeout, console });
  const runScript = (script: Script) => {
    const pathname = new URL(script.src, document.baseURI).pathname;
    page.requested.push(pathname);
    const file = path.join(outDir, pathname);
    if (page.failNext.delete(pathname) || !existsSync(file)) return script.onerror?.();
    document.currentScript = script;
    vm.runInContext(readFileSync(file, 'utf8'), context);
    document.currentScript = null;
    script.onload?.();
  };
  runScript({ src: loaderUrl!, dataset: { entry: entry! }, remove: () => undefined });
  const global = context as unknown as Pick<Page, 'loadLazy' | 'loadBroken'>;
  return Object.defineProperties(page, { loadLazy: { get: () => global.loadLazy }, loadBroken: { get: () => global.loadBroken } }) as Page;
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('the build as classic scripts', () => {
  it('runs the entry with its imports first, sharing live bindings, import.meta and no require of its own', async () => {
    const page = openPage();
    await until(() => page.log.length === 3);
    const [, , seen] = page.log as [string, string, unknown[]];
    expect(page.log.slice(0, 2)).toEqual(['shared runs', 'main runs']);
    expect(seen.slice(0, 3)).toEqual(['main sees', 1, ['undefined', 'undefined', 'undefined']]);
    expect(seen[3]).toMatch(/^\/assets\/index-[\w-]+\.c1\.js$/);
  });

  it('loads a dynamic import with its imports and gives its exports, live, shared with the entry', async () => {
    const page = openPage();
    await until(() => typeof page.loadLazy === 'function');
    const lazy = await page.loadLazy();
    expect(lazy.seenOnLoad).toBe(1);
    expect(lazy.default).toBe('the default export');
    expect(lazy.bumpAndRead()).toBe(2);
    // The shared module ran once, however many chunks import it.
    expect(page.log.filter((l) => l === 'shared runs')).toHaveLength(1);
  });

  it('rejects a dynamic import whose download fails, and downloads it again when asked again', async () => {
    const page = openPage();
    await until(() => typeof page.loadLazy === 'function');
    const lazyFile = findChunk('lazy');
    page.failNext.add(lazyFile);
    await expect(page.loadLazy()).rejects.toThrow(`Failed to fetch dynamically imported module: https://tanya.test${lazyFile}`);
    expect((await page.loadLazy()).default).toBe('the default export');
    expect(page.requested.filter((p) => p === lazyFile)).toHaveLength(2);
  });

  it('throws a chunk\'s error to every importer and runs its code once, as a module that failed to evaluate', async () => {
    const page = openPage();
    await until(() => typeof page.loadBroken === 'function');
    await expect(page.loadBroken()).rejects.toThrow('broken at load');
    await expect(page.loadBroken()).rejects.toThrow('broken at load');
    expect(page.log.filter((l) => l === 'broken runs')).toHaveLength(1);
  });

  it('starts every chunk with V8\'s compile-all hint, and preloads the entry\'s chunks in index.html', () => {
    const chunks = ['index', 'lazy'].map(findChunk);
    for (const chunk of chunks) expect(readFileSync(path.join(outDir, chunk), 'utf8').split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    expect(html).toContain(`<link rel="preload" as="script" href="${chunks[0]}">`);
    expect(html).not.toContain(chunks[1]);
    expect(html).not.toContain('type="module"');
  });
});

/** The URL path of the built chunk named `name`. */
function findChunk(name: string): string {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const inHtml = new RegExp(`/assets/${name}-[\\w-]+\\.c1\\.js`).exec(html)?.[0];
  if (inHtml) return inHtml;
  const loader = /\/assets\/chunk-loader-[\w-]+\.js/.exec(html)![0];
  const file = new RegExp(`assets/${name}-[\\w-]+\\.c1\\.js`).exec(readFileSync(path.join(outDir, loader), 'utf8'))?.[0];
  if (!file) throw new Error(`no chunk ${name}`);
  return `/${file}`;
}
