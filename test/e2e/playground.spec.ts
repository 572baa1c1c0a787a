import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './helpers/axe';

test.describe('playground', () => {
  test('shows every UI-kit section and passes axe in light and dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/playground');
    await expect(page.getByRole('heading', { name: 'Component Playground' })).toBeVisible();
    for (const section of ['Colours', 'Buttons', 'Inputs', 'Selects', 'Date pickers', 'Toggles', 'Modals', 'Tooltips', 'Pagination', 'Error messages', 'Toasts']) {
      await expect(page.getByRole('heading', { name: section, exact: true })).toBeVisible();
    }
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
  });

  test('a toast shows its message and closes by itself after 3 seconds', async ({ page }) => {
    const start = new Date('2026-11-23T09:00:00Z');
    await page.clock.install({ time: start });
    await page.goto('/playground');
    // The toast stack loads with the first toast (React reveals it on a timer, so time must flow for that one).
    await page.getByRole('button', { name: 'Info toast' }).click();
    await expect(page.getByText('A new version is available.')).toBeVisible();
    // Then a paused clock: on a busy machine, real seconds between the steps would otherwise count towards the 3.
    await page.clock.pauseAt(new Date(start.getTime() + 10 * 60_000));
    await page.getByRole('button', { name: 'Warning toast' }).click();
    const toast = page.getByText('You are close to your monthly limit.');
    await expect(toast).toBeVisible();
    await page.mouse.move(0, 0); // hovering the stack pauses the timer
    await page.clock.runFor(2_500);
    await expect(toast).toBeVisible();
    await page.clock.runFor(1_000);
    await expect(toast).toHaveCount(0);
  });

  test('modals close on Escape and on a click outside; the confirm dialog has the spec defaults', async ({ page }) => {
    await page.goto('/playground');
    await page.getByRole('button', { name: 'Open lg modal' }).click();
    const modal = page.getByRole('dialog', { name: 'Modal (lg)' });
    await expect(modal).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(modal).toHaveCount(0);

    await page.getByRole('button', { name: 'Open sm modal' }).click();
    await expect(page.getByRole('dialog', { name: 'Modal (sm)' })).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(page.getByRole('dialog', { name: 'Modal (sm)' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Open confirm dialog' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm Action' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByText('Are you sure you want to proceed?')).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Action confirmed')).toBeVisible();
  });

  test('pagination: a window of 5 page buttons around the current page, plus first and last', async ({ page }) => {
    await page.goto('/playground');
    const nav = page.getByRole('navigation', { name: 'Pagination' });
    const labels = () => nav.locator('button[aria-label^="Page "]').evaluateAll((els) => els.map((e) => e.textContent));
    // The playground's own chunk is the largest lazy one: on a busy machine it takes longer than 7 s.
    await expect(nav).toBeVisible({ timeout: 20_000 });
    expect(await labels()).toEqual(['1', '2', '3', '4', '5', '12']);
    for (const p of [4, 6]) await nav.getByRole('button', { name: `Page ${p}`, exact: true }).click();
    await expect.poll(labels).toEqual(['1', '4', '5', '6', '7', '8', '12']);
    await expect(page.getByText('Page 6 of 12')).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Page 6' })).toHaveAttribute('aria-current', 'page');
  });
});
