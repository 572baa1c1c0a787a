/**
 * The app's module loader in the browser (serialised into an asset by classic-chunks-plugin.ts, so it runs as plain
 * JavaScript): every chunk of the build is a classic script that hands its module to `define`, and this loads a
 * chunk with every chunk it imports, runs them in import order and gives back the chunk's exports, as `import()`
 * would. Why not the browser's own modules: Chromium keeps V8's compiled code of classic scripts between visits but
 * parses module scripts from source on every load. The measurement that keeps this hand-written loader: opening a
 * 1,000-message conversation on a return visit took 58 ms less with it (median of 20 paired loads,
 * `npx tsx test/bench/open-ab.ts`; see classic-chunks-plugin.ts); without such a gain, the browser's modules win.
 *
 * `base`: the app's base path; `imports`: each chunk's file -> the chunks it imports statically. The script tag that
 * loads this file names the entry chunk in `data-entry`, which is then loaded and run.
 */
export function installChunkLoader(base: string, imports: Record<string, string[]>): void {
  interface Module {
    exports: unknown;
    /** What its code threw when it ran: thrown again to every later importer, as a module's evaluation error is. */
    failure?: { error: unknown };
  }
  type Require = (specifier: string) => unknown;
  type Factory = (require: Require, module: Module, meta: { url: string }) => void;

  const factories = new Map<string, Factory>();
  const modules = new Map<string, Module>();
  const loading = new Map<string, Promise<void>>();
  const urlOf = (file: string) => new URL(base + file, document.baseURI).href;

  /** Runs a defined chunk once (its imports first, as they are required) and returns its exports. */
  const run = (file: string): unknown => {
    const known = modules.get(file);
    if (known?.failure) throw known.failure.error;
    if (known) return known.exports;
    const factory = factories.get(file);
    if (!factory) throw new Error(`The chunk ${file} was needed before it was loaded`);
    const module: Module = { exports: {} };
    // Before running it: chunks that import each other get the exports as they are so far, as modules would.
    modules.set(file, module);
    // Chunks import each other by './name.js' from the same folder (checked at build time).
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    try {
      factory((specifier) => run(folder + specifier.slice(2)), module, { url: urlOf(file) });
    } catch (error) {
      module.failure = { error };
      throw error;
    }
    return module.exports;
  };

  const load = (file: string): Promise<void> => {
    let pending = loading.get(file);
    if (!pending) {
      pending = new Promise<void>((resolve, reject) => {
        const script = document.createElement('script');
        script.src = urlOf(file);
        // A classic script's load event follows its run, so the chunk has called `define` by then.
        script.onload = () => resolve();
        script.onerror = () => {
          // Asked for again later (a flaky network, a new deployment), the chunk is fetched again.
          loading.delete(file);
          script.remove();
          reject(new TypeError(`Failed to fetch dynamically imported module: ${script.src}`));
        };
        document.head.append(script);
      });
      loading.set(file, pending);
    }
    return pending;
  };

  /** The chunk and every chunk it imports, however deep. */
  const closure = (file: string, into = new Set<string>()): Set<string> => {
    if (!into.has(file)) {
      into.add(file);
      for (const dep of imports[file] ?? []) closure(dep, into);
    }
    return into;
  };

  /** `import()` of a chunk: all the files it needs are fetched side by side, then run in import order. */
  const importChunk = (file: string): Promise<unknown> =>
    Promise.all([...closure(file)].filter((f) => !factories.has(f)).map(load)).then(() => run(file));

  (globalThis as unknown as { __tanyaChunks: unknown }).__tanyaChunks = {
    define: (file: string, factory: Factory) => void factories.set(file, factory),
    import: importChunk,
  };

  const entry = (document.currentScript as HTMLScriptElement | null)?.dataset.entry;
  // A failure is thrown where it surfaces as an uncaught error, as a failing module script's would.
  if (entry)
    importChunk(entry).catch((err: unknown) =>
      setTimeout(() => {
        throw err;
      }),
    );
}
