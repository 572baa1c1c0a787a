import { expect, test } from '@playwright/test';
import { TITLE_POLL_INTERVAL_MS } from '../../machines/title-poll.machine';
import { accounts, signInAndLand } from './helpers/accounts';

/** Every route names its browser tab ('Users · Tanya'); the chat is named after its conversation. */
test.describe('page titles', () => {
  test('public routes name the tab', async ({ page }) => {
    for (const [path, title] of [
      ['/login', 'Sign in · Tanya'],
      ['/reset-password/not-a-real-token-0123456789', 'Reset password · Tanya'],
      ['/activate/not-a-real-code-0123456789', 'Activate your account · Tanya'],
      ['/playground', 'Playground · Tanya'],
      ['/no-such-page', 'Page not found · Tanya'],
    ] as const) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(title);
    }
  });

  test("an admin's routes name the tab, and the chat shows the conversation's title", async ({ page }) => {
    // The title poll asks every 20 s (spec), so the conversation's name reaches the tab after one interval: moved on
    // with Playwright's clock (installed before the chat loads) instead of waited for.
    test.setTimeout(120_000);
    await signInAndLand(page, accounts.admin, /\/home$/);
    await expect(page).toHaveTitle('Home · Tanya');
    for (const [link, title] of [
      ['Users', 'Users · Tanya'],
      ['Departments', 'Departments · Tanya'],
      ['Global Policy', 'Global Policy · Tanya'],
      ['Feedback Inbox', 'Feedback Inbox · Tanya'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).first().click();
      await expect(page).toHaveTitle(title);
    }
    await page.goto('/profile');
    await expect(page).toHaveTitle('My Profile · Tanya');
    await page.goto('/shared-links');
    await expect(page).toHaveTitle('Shared Links · Tanya');

    await page.clock.install();
    await page.goto('/chat');
    await expect(page).toHaveTitle('New chat · Tanya');
    const question = `Title of the tab ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Message' }).fill(question);
    await page.keyboard.press('Enter');
    // The poll starts once the exchange is over; then one interval later it asks.
    await expect(page.getByRole('article', { name: 'Assistant message' }).last()).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
    await page.clock.fastForward(TITLE_POLL_INTERVAL_MS);
    // The offline responder names the conversation after the question.
    await expect(page).toHaveTitle(`${question} · Tanya`, { timeout: 60_000 });
  });
});
