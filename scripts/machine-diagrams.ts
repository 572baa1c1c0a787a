import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

// `npm run diagrams`: every statechart in machines/ drawn for QA as a Mermaid diagram (GitHub and most Markdown
// viewers draw it), one page per machine in docs/machines/ and an index, so a failing generated path can be read on
// its chart. test/unit/machine-diagrams.test.ts fails when a page is not what this script would write now.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MACHINES_DIR = path.join(ROOT, 'machines');
export const DIAGRAMS_DIR = path.join(ROOT, 'docs', 'machines');

export interface MachinePage {
  /** The page's file name in docs/machines/. */
  file: string;
  /** The exported name of the machine drawn. */
  exportName: string;
  module: string;
  states: number;
  transitions: number;
  markdown: string;
}

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'root' in value && 'config' in value && typeof (value as { transition?: unknown }).transition === 'function';

const camel = (file: string) => file.replace(/\.machine\.ts$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyStateNode>).flatMap(allNodes)];
}

/** The same transitions the model tests count (test/model/support/model-paths.ts). */
function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

/** Mermaid ids may not hold dots or dashes. */
const idOf = (node: AnyStateNode) => node.id.replace(/[^A-Za-z0-9_]/g, '_');

/** An event as a person reads it: delays and actor results spelled out. */
function eventLabel(type: string): string {
  if (!type) return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return /^\d+$/.test(after[1]) ? `after ${after[1]} ms` : `after ${after[1]}`;
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (error) return `${error[1]} failed`;
  if (type.startsWith('xstate.done.state.')) return 'region done';
  return type;
}

/** A guard by name; and/or/not with what they combine, as `and(hasText, not(isBusy))`. */
function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const inner = (guard as { guards?: unknown[] }).guards;
    return inner ? `${guard.name}(${inner.map(guardName).join(', ')})` : guard.name || 'guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'guard';
}

function guardLabel(t: AnyTransitionDefinition): string {
  return t.guard ? ` [${guardName(t.guard)}]` : '';
}

/** Mermaid's label runs to the end of the line; a colon or semicolon in it would cut it. */
const clean = (label: string) => label.replace(/[:;]/g, ' ').replace(/\s+/g, ' ').trim();

export function mermaidOf(machine: AnyStateMachine): { text: string; states: number; transitions: number } {
  const lines: string[] = ['stateDiagram-v2'];
  let transitions = 0;
  const draw = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states as Record<string, AnyStateNode>);
    if (children.length === 0) return;
    const initial = node.type === 'parallel' ? undefined : (node.initial?.target?.[0] as AnyStateNode | undefined);
    if (initial) lines.push(`${indent}[*] --> ${idOf(initial)}`);
    for (const child of children) {
      lines.push(`${indent}state "${child.key}" as ${idOf(child)}`);
      if (Object.keys(child.states).length > 0) {
        lines.push(`${indent}state ${idOf(child)} {`);
        draw(child, `${indent}  `);
        lines.push(`${indent}}`);
      }
      if (child.type === 'final') lines.push(`${indent}${idOf(child)} --> [*]`);
    }
  };
  draw(machine.root, '  ');
  const rootTransitions = transitionsOf(machine.root).length > 0;
  // The root has no box of its own: what it handles in every state is drawn from a box named for that.
  if (rootTransitions) lines.push(`  state "in any state" as ${idOf(machine.root)}_any`);
  for (const node of allNodes(machine.root)) {
    for (const t of transitionsOf(node)) {
      transitions++;
      const targets = (t.target ?? []) as AnyStateNode[];
      const label = clean(`${eventLabel(t.eventType)}${guardLabel(t)}`);
      // A transition without a target stays where it is (its actions run): drawn as a loop.
      for (const target of targets.length > 0 ? targets : [node]) {
        const from = node === machine.root ? `${idOf(machine.root)}_any` : idOf(node);
        lines.push(`  ${from} --> ${node === machine.root && target === node ? from : idOf(target)}: ${label}`);
      }
    }
  }
  return { text: lines.join('\n'), states: allNodes(machine.root).length - 1, transitions };
}

/** Every machine in machines/, one page each: the machine a file is named for, then any other whose chart differs. */
export async function machinePages(): Promise<{ pages: MachinePage[]; inputsOnly: InputsOnly[] }> {
  const pages: MachinePage[] = [];
  const drawn = new Set<unknown>();
  const files = readdirSync(MACHINES_DIR).filter((f) => f.endsWith('.machine.ts')).sort();
  const modules = await Promise.all(files.map(async (file) => ({ file, exports: (await import(pathToFileURL(path.join(MACHINES_DIR, file)).href)) as Record<string, unknown> })));
  const add = (file: string, exportName: string, machine: AnyStateMachine) => {
    drawn.add(machine.config);
    const { text, states, transitions } = mermaidOf(machine);
    const pageFile = `${exportName.replace(/Machine$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.md`;
    const markdown = [
      `# ${exportName}`,
      '',
      `\`machines/${file}\`, machine id \`${machine.id}\`: ${states} states, ${transitions} transitions (as the model tests count them).`,
      'Generated by `npm run diagrams` (scripts/machine-diagrams.ts); do not edit by hand.',
      '',
      '```mermaid',
      text,
      '```',
      '',
    ].join('\n');
    pages.push({ file: pageFile, exportName, module: file, states, transitions, markdown });
  };
  for (const { file, exports } of modules) {
    const primary = exports[`${camel(file)}Machine`];
    if (isMachine(primary)) add(file, `${camel(file)}Machine`, primary);
  }
  for (const { file, exports } of modules) {
    for (const [name, value] of Object.entries(exports).sort(([x], [y]) => x.localeCompare(y))) {
      if (isMachine(value) && !drawn.has(value.config)) add(file, name, value);
    }
  }
  // Screens whose behaviour is a shared machine's with an input of their own (users, departments, clients...).
  const inputsOnly = modules
    .filter(({ file }) => !pages.some((p) => p.module === file))
    .map(({ file }) => {
      const source = readFileSync(path.join(MACHINES_DIR, file), 'utf8');
      const uses = pages.filter((p) => source.includes(`${p.exportName.replace(/Machine$/, '').replace(/^./, (c) => c.toUpperCase())}Input`)).map((p) => p.file);
      return { module: file, uses };
    });
  return { pages, inputsOnly };
}

/** A file of machines/ that configures a shared machine (its input) instead of defining one. */
export interface InputsOnly {
  module: string;
  /** The pages of the machines it gives input to. */
  uses: string[];
}

export function indexPage(pages: MachinePage[], inputsOnly: InputsOnly[]): string {
  return [
    '# State machines',
    '',
    "Every statechart of the SPA (`machines/`), drawn for reading a generated path's steps on its chart. Generated by",
    '`npm run diagrams`; CI fails when a page is out of date (test/unit/machine-diagrams.test.ts).',
    '',
    '| Machine | File | States | Transitions |',
    '|---|---|---|---|',
    ...[...pages].sort((a, b) => a.exportName.localeCompare(b.exportName)).map((p) => `| [${p.exportName}](${p.file}) | \`machines/${p.module}\` | ${p.states} | ${p.transitions} |`),
    '',
    'These screens run a shared machine with an input of their own (what they list, what a record holds), so its chart is theirs:',
    '',
    ...inputsOnly.map((i) => `- \`machines/${i.module}\`: ${i.uses.map((u) => `[${u.replace(/\.md$/, '')}](${u})`).join(', ')}`),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { pages, inputsOnly } = await machinePages();
  rmSync(DIAGRAMS_DIR, { recursive: true, force: true });
  mkdirSync(DIAGRAMS_DIR, { recursive: true });
  for (const page of pages) writeFileSync(path.join(DIAGRAMS_DIR, page.file), page.markdown);
  writeFileSync(path.join(DIAGRAMS_DIR, 'README.md'), indexPage(pages, inputsOnly));
  console.log(`docs/machines: ${pages.length} machines drawn`);
}
