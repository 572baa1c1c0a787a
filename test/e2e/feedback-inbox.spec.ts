import { expect, test, type Page } from '@playwright/test';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { assistantMessages, unique } from './paths/paths-support';
import { openSeededConversation } from './helpers/seed';

const isRatingPut = (r: { url(): string; method(): string }) => r.method() === 'PUT' && /\/api\/v1\/chat\/messages\/[^/]+\/rating$/.test(new URL(r.url()).pathname);

async function axeLightAndDark(page: Page) {
  await page.emulateMedia({ colorScheme: 'light' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

const entries = (page: Page) => page.getByRole('region', { name: 'Feedback' }).getByRole('article');

test.describe('reply ratings and the feedback inbox', () => {
  test('a person rates a reply and sends feedback; the admin finds both in the Feedback Inbox', async ({ page, browser }) => {
    // Two people, a streamed reply and six axe runs: minutes on 2 busy cores.
    test.setTimeout(300_000);
    const question = unique('Rate this answer');
    const comment = unique('It answered a different question');
    const feedbackText = unique('The thumbs are handy');

    await signInByApi(page, accounts.user);
    await openSeededConversation(page, question);
    const reply = assistantMessages(page).last();
    await reply.hover();
    const good = reply.getByRole('button', { name: 'Good reply' });
    const bad = reply.getByRole('button', { name: 'Bad reply' });
    await expect(good).toHaveAttribute('aria-pressed', 'false');

    // Thumbs up, and again to take it back: each press is saved.
    let put = page.waitForRequest(isRatingPut);
    await good.click();
    expect((await put).postDataJSON()).toEqual({ rating: 'up', comment: null });
    await expect(good).toHaveAttribute('aria-pressed', 'true');
    put = page.waitForRequest(isRatingPut);
    await good.click();
    expect((await put).postDataJSON()).toEqual({ rating: null, comment: null });
    await expect(good).toHaveAttribute('aria-pressed', 'false');

    // Thumbs down asks what went wrong; the comment is optional and says who reads it.
    await bad.click();
    await expect(bad).toHaveAttribute('aria-pressed', 'true');
    const dialog = page.getByRole('dialog', { name: 'What went wrong?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Your organisation's admins see your rating, this comment and the start of the reply.");
    await axeLightAndDark(page);
    await dialog.getByRole('textbox', { name: 'Comment (optional)' }).fill(comment);
    put = page.waitForRequest(isRatingPut);
    await dialog.getByRole('button', { name: 'Send' }).click();
    expect((await put).postDataJSON()).toEqual({ rating: 'down', comment });
    await expect(page.getByText('Thanks for your comment')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // Kept on the server: shown again after a reload.
    await page.reload();
    await expect(assistantMessages(page).last().getByRole('button', { name: 'Bad reply' })).toHaveAttribute('aria-pressed', 'true');
    await expect(assistantMessages(page).last().getByRole('button', { name: 'Good reply' })).toHaveAttribute('aria-pressed', 'false');

    // And general feedback from the profile menu.
    await page.getByRole('button', { name: 'Account details' }).first().click();
    await page.getByRole('button', { name: 'Submit Feedback' }).click();
    const form = page.getByRole('dialog', { name: 'Submit Feedback' });
    await form.getByRole('textbox', { name: 'Tell us more' }).fill(feedbackText);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Your submission has been received. Thank you!')).toBeVisible();

    // The admin, in a browser of their own, reaches the inbox from the sidebar.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAndLand(admin, accounts.admin, /\/home$/);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feedback Inbox' }).click();
    await expect(admin).toHaveURL(/\/feedback-inbox$/);
    await expect(admin.getByRole('heading', { level: 1, name: 'Feedback Inbox' })).toBeVisible();
    const rating = entries(admin).filter({ hasText: comment });
    await expect(rating).toHaveCount(1);
    await expect(rating).toHaveAccessibleName(/^Reply rated bad from /);
    await expect(rating).toContainText('user@demo.local');
    // It quotes the start of the reply as text: the markdown's marks are not shown.
    const quote = rating.getByRole('blockquote');
    await expect(quote).toContainText("This is Tanya's offline demo responder. No AI model is configured");
    await expect(quote).not.toContainText('**');
    const feedback = entries(admin).filter({ hasText: feedbackText });
    await expect(feedback).toHaveCount(1);
    await expect(feedback).toContainText('Feedback: Average');
    await axeLightAndDark(admin);

    // Filtered by kind: the ratings only, then the feedback only.
    await admin.getByRole('radio', { name: 'Reply ratings' }).or(admin.getByRole('button', { name: 'Reply ratings' })).click();
    await expect(entries(admin).filter({ hasText: feedbackText })).toHaveCount(0);
    await expect(entries(admin).filter({ hasText: comment })).toHaveCount(1);
    await expect(entries(admin).first()).toHaveAccessibleName(/^Reply rated /);
    await admin.getByRole('radio', { name: 'Feedback' }).or(admin.getByRole('button', { name: 'Feedback', exact: true })).click();
    await expect(entries(admin).filter({ hasText: comment })).toHaveCount(0);
    await expect(entries(admin).filter({ hasText: feedbackText })).toHaveCount(1);

    // On a phone: cards, nothing off-screen, in light and dark.
    await admin.setViewportSize(PHONE);
    await admin.getByRole('radio', { name: 'All' }).or(admin.getByRole('button', { name: 'All', exact: true })).click();
    await expect(entries(admin).filter({ hasText: comment })).toHaveCount(1);
    await expectNoHorizontalOverflow(admin);
    await admin.emulateMedia({ colorScheme: 'dark' });
    await expectNoHorizontalOverflow(admin);
    await axeLightAndDark(admin);
    await adminContext.close();
  });

  test('a plain user is kept out of the inbox', async ({ page }) => {
    test.setTimeout(60_000);
    await signInByApi(page, accounts.user);
    await page.goto('/feedback-inbox');
    await expect(page).toHaveURL(/\/chat$/);
  });
});
