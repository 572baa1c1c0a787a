import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { coverageOf } from '../../model/support/model-paths';

// The states and transitions the generated browser paths reach, per machine, as planned for where they run: the
// local server, or a deployment when E2E_BASE_URL is set (what a path needs of the server's inside is generated only
// locally, as each paths model says). Printed as JSON for scripts/test-staging.ts, which runs this once each way:
// `npx tsx test/e2e/paths/coverage.ts`. The figures are those of the paths that run; a failing one fails the run.

export interface MachineCoverage {
  machine: string;
  paths: number;
  states: { covered: number; total: number };
  transitions: { covered: number; total: number };
  /** Why the machine's paths do not run here (they count as reaching nothing). */
  localOnly?: string;
}

const DIR = path.dirname(fileURLToPath(import.meta.url));
const local = !process.env.E2E_BASE_URL;

export async function pathsCoverage(): Promise<MachineCoverage[]> {
  const rows: MachineCoverage[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.paths-model.ts')).sort()) {
    const exports = (await import(pathToFileURL(path.join(DIR, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (!name.endsWith('Machine')) continue;
      const base = name.slice(0, -'Machine'.length);
      const paths = exports[`${base}Paths`] as unknown[] | undefined;
      if (!paths) continue;
      const localOnly = local ? undefined : (exports[`${base}LocalOnly`] as string | undefined);
      const c = coverageOf(value as AnyStateMachine, (localOnly ? [] : paths) as never);
      rows.push({
        machine: base.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`),
        paths: localOnly ? 0 : paths.length,
        states: { covered: c.states.covered, total: c.states.total },
        transitions: { covered: c.transitions.covered, total: c.transitions.total },
        ...(localOnly ? { localOnly } : {}),
      });
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await pathsCoverage())}\n`);
}
