import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

// Evaluated over the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an injected <script>.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: unknown[]; html: string; any: Array<{ message: string }> }>;
}

/** axe-core in the page, once per document: a screen checked in light and dark asked for it four times. */
async function injectAxe(page: Page) {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.evaluate(axeSource);
}

/**
 * Waits until no CSS transition runs: a colour measured half-way (right after a colour-scheme switch, dark text still
 * fading to light) fails the contrast rule. Waiting once for the transitions then running was not enough: a frame
 * after they ended others had started (44 running after a switch to dark, then 5, then none), and 11-16 tests a run
 * failed the contrast rule mid-fade, passing on their retry (stop 45). So: look a frame later, and wait and look
 * again until a frame finds none. One that is cancelled (hydration replacing the prerendered login form restyles it)
 * rejects, and is over just the same.
 */
async function transitionsEnded(page: Page) {
  await page.evaluate(async () => {
    for (;;) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const running = document.getAnimations().filter((a) => a instanceof CSSTransition);
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/** Runs axe-core in the page and fails with a readable list of what it found. */
export async function expectNoAxeViolations(page: Page) {
  // A prerendered page is drawn before it works; its controls restyle as it hydrates (src/app/live-marker.tsx).
  await page.locator('html[data-live]').waitFor({ state: 'attached' });
  await transitionsEnded(page);
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    const scheme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    // axe's own finding (for contrast: both colours and the ratio) and the scheme, so a failure says what it saw.
    const found = (n: AxeViolation['nodes'][number]) => `${JSON.stringify(n.target)} (${n.any[0]?.message ?? n.html.slice(0, 120)}; ${scheme})`;
    return result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map(found) }));
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
