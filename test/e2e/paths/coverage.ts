import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { coverageOf, type LeftOut } from '../../model/support/model-paths';

// The states and transitions the generated browser paths reach, per machine, as planned for where they run: the
// local server, or a deployment when E2E_BASE_URL is set (what a path needs of the server's inside is generated only
// locally, as each paths model says). Printed as JSON for scripts/test-staging.ts, which runs this once each way:
// `npx tsx test/e2e/paths/coverage.ts`. The figures are those of the paths that run; a failing one fails the run.

export interface MachineCoverage {
  machine: string;
  paths: number;
  states: { covered: number; total: number };
  transitions: { covered: number; total: number };
  /**
   * The transitions a browser can cause or force: all of them but those its paths model lists as unforceable
   * (`<machine>Unforceable`, each with why: a product that never sends the event, a child that catches its own
   * failures). Issue 33's 90% goal is of these.
   */
  forceable: { covered: number; total: number };
  unforceable: LeftOut[];
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
      const unforceable = (exports[`${base}Unforceable`] as LeftOut[] | undefined) ?? [];
      const left = unforceable.flatMap((u) => u.transitions);
      // A listed transition must be the machine's, and no path may take it (else a browser can cause it after all).
      const all = coverageOf(value as AnyStateMachine, []).transitions.missing;
      const wrong = left.filter((t) => !all.includes(t) || !c.transitions.missing.includes(t));
      if (wrong.length > 0) throw new Error(`${file}: ${base}Unforceable lists transitions that are not the machine's or that a path takes: ${wrong.join('; ')}`);
      rows.push({
        machine: base.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`),
        paths: localOnly ? 0 : paths.length,
        states: { covered: c.states.covered, total: c.states.total },
        transitions: { covered: c.transitions.covered, total: c.transitions.total },
        forceable: { covered: c.transitions.covered, total: c.transitions.total - left.length },
        unforceable,
        ...(localOnly ? { localOnly } : {}),
      });
    }
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await pathsCoverage())}\n`);
}
