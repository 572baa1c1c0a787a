// The extraction worker's entry. A worker thread starts from a file Node itself can load: a .ts entry would need
// the TypeScript loader in the worker, which `tsx server/main.ts` passes on to workers (through execArgv) but
// vitest does not (it transforms modules in-process, without Node loader hooks). tsx's tsImport registers its
// loader for this one import in this thread only, so the TypeScript body runs the same way under `npm start`,
// `npm run bench` (tsx) and vitest, and needs no build step.
import { tsImport } from 'tsx/esm/api';

await tsImport('./extract-worker-main.ts', import.meta.url);
