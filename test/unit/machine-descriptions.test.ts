import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateMachine, type AnyStateMachine, type AnyStateNode } from 'xstate';

/**
 * Every state of every machine says, in a `description`, what the person sees or what is happening, so the
 * inspector (and anyone reading a snapshot) is told in the spec's words. A new state without one fails here.
 */
const machinesDir = fileURLToPath(new URL('../../machines/', import.meta.url));
const files = readdirSync(machinesDir)
  .filter((f) => f.endsWith('.machine.ts'))
  .sort();

/** The machines a file exports (a screen's file may hold only its input for a shared machine). */
async function machinesOf(file: string): Promise<AnyStateMachine[]> {
  const exports: Record<string, unknown> = await import(`../../machines/${file}`);
  return Object.values(exports).filter((value): value is AnyStateMachine => value instanceof StateMachine);
}

/** The ids of a state's descendants that have no description. */
function undescribed(node: AnyStateNode): string[] {
  return Object.values(node.states).flatMap((child) => [...(child.description?.trim() ? [] : [child.id]), ...undescribed(child)]);
}

describe('machine state descriptions', () => {
  it('finds the machines', async () => {
    const withMachines = (await Promise.all(files.map(machinesOf))).filter((machines) => machines.length > 0);
    expect(withMachines.length).toBeGreaterThan(20);
  });

  it.each(files)('%s: every state has a description', async (file) => {
    const machines = await machinesOf(file);
    expect(machines.flatMap((machine) => undescribed(machine.root))).toEqual([]);
  });
});
