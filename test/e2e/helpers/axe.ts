import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

// Evaluated over the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an injected <script>.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; help: string; nodes: Array<{ target: unknown[]; html: string }> }

/** axe-core in the page, once per document: a screen checked in light and dark asked for it four times. */
async function injectAxe(page: Page) {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.evaluate(axeSource);
}

/** Runs axe-core in the page and fails with a readable list of what it found. */
export async function expectNoAxeViolations(page: Page) {
  // A prerendered page is drawn before it works; its controls restyle as it hydrates (src/app/live-marker.tsx).
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  // Colour transitions (e.g. right after a colour-scheme switch) would be measured half-way. One that is cancelled
  // (hydration replacing the prerendered login form restyles it) rejects, and is over just the same.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))),
  );
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  expect(violations.map((v) => `${v.id}: ${v.help} @ ${v.targets.join(', ')}`)).toEqual([]);
}

/**
 * axe skips disabled controls (WCAG exempts them), but a faded button people cannot read is still a button they
 * cannot read: what it would do stays unknown. Here every control drawn as disabled (`data-disabled`) is shown to
 * axe's colour-contrast rule as if it were enabled (its look, keyed on data-disabled, stays), then put back.
 */
export async function expectDisabledControlsLegible(page: Page) {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const faded = Array.from(document.querySelectorAll('[data-disabled]'));
    if (faded.length === 0) return [];
    // The control and what it holds: a disabled checkbox's hidden <input> makes axe skip the label's text too.
    const controls = new Set(faded.flatMap((el) => [el, ...Array.from(el.querySelectorAll('input, button, select, textarea'))]));
    const put = [...controls].map((el) => ({ el, disabled: el.getAttribute('disabled'), aria: el.getAttribute('aria-disabled') }));
    for (const { el } of put) {
      el.removeAttribute('disabled');
      el.removeAttribute('aria-disabled');
    }
    for (const el of faded) el.setAttribute('data-sweep-faded', '');
    try {
      const axe = (window as unknown as { axe: { run(ctx: object, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run({ include: [['[data-sweep-faded]']] }, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
      return result.violations.flatMap((v) => v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 160)}`));
    } finally {
      for (const el of faded) el.removeAttribute('data-sweep-faded');
      for (const { el, disabled, aria } of put) {
        if (disabled !== null) el.setAttribute('disabled', disabled);
        if (aria !== null) el.setAttribute('aria-disabled', aria);
      }
    }
  });
  expect(violations, 'disabled controls below contrast').toEqual([]);
}
