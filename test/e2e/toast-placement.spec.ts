import { expect, test, type Locator, type Page } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { unique } from './paths/paths-support';

/**
 * Toasts never cover Send or Stop: on a laptop the stack rises above the composer, on a phone it hangs below the
 * header. A person copies their message three times (three toasts in the stack) while a reply streams (Stop shows)
 * and again once it is done (Send shows).
 */

const SEND = (url: URL) => url.pathname.endsWith('/api/v1/chat/messages');
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const toasts = (page: Page) => page.getByRole('alertdialog', { name: /^(Message copied|Failed to copy message)/ });

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Raises three toasts (copying the question) and checks none of them covers `button`. */
async function expectToastsClear(page: Page, button: Locator) {
  const target = (await button.boundingBox())!;
  expect(target, 'the button is on screen').toBeTruthy();
  // From the keyboard: on a phone the first toast may lie over the message's own buttons.
  const copy = page.getByRole('article', { name: 'Your message' }).last().getByRole('button', { name: 'Copy message' });
  await copy.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
  await expect(toasts(page)).toHaveCount(3);
  for (const toast of await toasts(page).all()) {
    const box = (await toast.boundingBox())!;
    expect(overlaps(box, target), `a toast at ${JSON.stringify(box)} covers the button at ${JSON.stringify(target)}`).toBe(false);
    // Where the stack is, not only where it is not: above the composer's button on a laptop; on a phone hanging
    // below the 56 px header bar, in the top half (the keyboard and the composer take the bottom).
    expect(box.y + box.height, 'the toast ends above the button').toBeLessThanOrEqual(target.y);
    if (page.viewportSize()!.width < 640) {
      expect(box.y, 'the toast is below the header bar').toBeGreaterThanOrEqual(56);
      expect(box.y, 'the toast is in the top half').toBeLessThan(page.viewportSize()!.height / 2);
    }
  }
  // They close by themselves (3 s).
  await expect(toasts(page)).toHaveCount(0);
}

for (const viewport of [
  { name: 'a laptop', width: 1280, height: 720 },
  { name: 'a phone', width: 390, height: 844 },
]) {
  test.describe(`toasts on ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, permissions: ['clipboard-read', 'clipboard-write'] });

    test('never cover Stop while a reply streams, nor Send after it', async ({ page }) => {
      test.slow();
      await signInAndLand(page, accounts.user, /\/chat$/);
      // The question is held on its way until the toasts are measured: Stop shows from the moment it is sent, and
      // the offline reply would otherwise be over before three toasts are up.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(SEND, async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        await held;
        return route.fallback();
      });
      await messageBox(page).fill(`${unique('Write a long essay about toast placement')}`);
      await messageBox(page).press('Enter');
      const stop = page.getByRole('button', { name: 'Stop reply' });
      await expect(stop).toBeVisible();
      await expectToastsClear(page, stop);
      release();
      const reply = page.getByRole('article', { name: 'Assistant message' }).last();
      await expect(reply).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
      await messageBox(page).fill('Another question');
      const send = page.getByRole('button', { name: 'Send message' });
      await expect(send).toBeEnabled();
      await expectToastsClear(page, send);
      await test.info().attach(`toasts-${viewport.width}.png`, { body: await page.screenshot(), contentType: 'image/png' });
    });
  });
}
