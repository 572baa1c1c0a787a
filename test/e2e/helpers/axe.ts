import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

// Evaluated over the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an injected <script>.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; help: string; nodes: Array<{ target: unknown[] }> }

/** Runs axe-core in the page and fails with a readable list of what it found. */
export async function expectNoAxeViolations(page: Page) {
  // Colour transitions (e.g. right after a colour-scheme switch) would be measured half-way. One that is cancelled
  // (hydration replacing the prerendered login form restyles it) rejects, and is over just the same.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  expect(violations.map((v) => `${v.id}: ${v.help} @ ${v.targets.join(', ')}`)).toEqual([]);
}
