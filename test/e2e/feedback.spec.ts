import { expect, test, type Page } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';

const RECEIVED = 'Your submission has been received. Thank you!';
const isFeedbackPost = (r: { url(): string; method(): string }) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/api/v1/feedbacks/');

/** The profile menu is in every layout: the chat sidebar for staff, the app sidebar for admins. */
async function openFromProfileMenu(page: Page, item: 'Submit Feedback' | 'Report an Issue') {
  await page.getByRole('button', { name: 'Account details' }).first().click();
  await page.getByRole('button', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: item });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('feedback and issue reports', () => {
  test('feedback carries a rating (Average by default), a report none; each is received and the form starts afresh', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);

    let dialog = await openFromProfileMenu(page, 'Submit Feedback');
    const rating = dialog.getByRole('button', { name: /Rating/ });
    await expect(rating).toContainText('Average');
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await rating.click();
    await page.getByRole('option', { name: 'Good', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Tell us more' }).fill('  Replies cite the right policy.  ');
    const sent = page.waitForRequest(isFeedbackPost);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect((await sent).postDataJSON()).toEqual({ type: 'feedback', level: 'GOOD', description: 'Replies cite the right policy.' });
    await expect(page.getByText(RECEIVED)).toHaveCount(1);
    await expect(dialog).toHaveCount(0);
    // Sent: the form was reset.
    dialog = await openFromProfileMenu(page, 'Submit Feedback');
    await expect(dialog.getByRole('button', { name: /Rating/ })).toContainText('Average');
    await expect(dialog.getByRole('textbox', { name: 'Tell us more' })).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    dialog = await openFromProfileMenu(page, 'Report an Issue');
    await expect(dialog.getByRole('button', { name: /Rating/ })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await dialog.getByRole('textbox', { name: 'What went wrong?' }).fill('The share link button is hard to find on a phone.');
    // The first submission's toast is gone before the second is sent, so the toast below is the report's.
    await expect(page.getByText(RECEIVED)).toHaveCount(0);
    const reported = page.waitForRequest(isFeedbackPost);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect((await reported).postDataJSON()).toEqual({ type: 'report', level: null, description: 'The share link button is hard to find on a phone.' });
    await expect(page.getByText(RECEIVED)).toHaveCount(1);
    await expect(dialog).toHaveCount(0);
  });

  test('an over-long description is refused before sending; an admin reaches the form from their own layout', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    const dialog = await openFromProfileMenu(page, 'Report an Issue');
    await dialog.getByRole('textbox', { name: 'What went wrong?' }).fill('x'.repeat(5001));
    let posted = false;
    page.on('request', (r) => {
      if (isFeedbackPost(r)) posted = true;
    });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Description cannot be more than 5,000 characters')).toBeVisible();
    expect(posted).toBe(false);
    // Keyboard only: the text is kept and shortened, then it goes.
    await dialog.getByRole('textbox', { name: 'What went wrong?' }).fill('Too long before, fine now.');
    await expect(dialog.getByText('Description cannot be more than 5,000 characters')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Submit' }).press('Enter');
    await expect(page.getByText(RECEIVED)).toBeVisible();
  });
});
