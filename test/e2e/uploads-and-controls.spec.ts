import { expect, test, type Page } from '@playwright/test';
import { WEB_BROWSING_UNAVAILABLE } from '../../contract/chat-tools';
import { DOCUMENT_UPLOADED, UPLOAD_TYPE_REFUSED } from '../../contract/documents-constants';
import { EXCLUSIVE_NOTE } from '../../src/features/chat/feature-controls';
import { uploadFailureText } from '../../machines/upload.machine';
import { accounts, signInAndLand } from './helpers/accounts';
import { runOutUploadStages } from './helpers/upload-stages';
import { expectNoAxeViolations } from './helpers/axe';
import { expectReplyComplete, messageBox, unique } from './paths/paths-support';
import { dropFiles, pickFiles, type PageFile } from './paths/upload.page-files';

/**
 * Issue 28, uploads and honest controls, against the real server: a refused file says so at once, files added
 * during an upload are queued, a sent question shows the files it carried (also after a reload), the header counts a
 * new chat's files, and the feature controls say what is chosen, what excludes what and what the server cannot do.
 */

const note = (name: string): PageFile => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`Notes in ${name}.\n\nThe team meets on Thursday.\n`) });
const overlay = (page: Page) => page.getByRole('status').filter({ hasText: /Uploading|Chunking text|Creating embeddings|Saving chunks/ });
const attachedFiles = (page: Page) => page.getByRole('list', { name: 'Attached files' });

test.describe('uploads', () => {
  test('a file the server refuses shows its error at once, without 6 s of Uploading first', async ({ page }) => {
    test.slow();
    await signInAndLand(page, accounts.user, /\/chat$/);
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/documents/') && r.request().method() === 'POST');
    await pickFiles(page, [{ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00]) }]);
    expect((await answered).status()).toBe(415);
    // The toast follows the answer (the stage clock used to hold it back for 6 s), and the overlay is gone.
    await expect(page.getByText(uploadFailureText([{ name: 'setup.exe', detail: UPLOAD_TYPE_REFUSED }]))).toBeVisible({ timeout: 4000 });
    await expect(overlay(page)).toHaveCount(0, { timeout: 1000 });
  });

  test('files dropped during an upload are queued; the sent question shows its files, also after a reload; the header counts them', async ({ page }) => {
    test.slow();
    await page.clock.install();
    await signInAndLand(page, accounts.user, /\/chat$/);
    await expect(page.getByRole('button', { name: '0 Documents', exact: true })).toBeVisible();
    const code = Math.random().toString(36).slice(2, 8);
    const first = `agenda-${code}.txt`;
    const second = `minutes-${code}.txt`;
    await dropFiles(page, [note(first)]);
    await expect(overlay(page)).toHaveText(/Uploading/);
    // Dropped while the first uploads: taken for the next batch, not ignored.
    await dropFiles(page, [note(second)]);
    // Both batches' stages moved on with Playwright's clock (the real timings: attachments.spec.ts's first test).
    await runOutUploadStages(page);
    await expect(page.getByText(DOCUMENT_UPLOADED).first()).toBeVisible();
    await expect(attachedFiles(page).getByRole('listitem')).toHaveCount(2);
    // A new chat's header counts the files attached for its first message.
    await expect(page.getByRole('button', { name: '2 Documents', exact: true })).toBeVisible();

    await messageBox(page).fill(unique('What do the notes say'));
    await page.getByRole('button', { name: 'Send message' }).click();
    const question = page.getByRole('article', { name: 'Your message' }).last();
    const chips = question.getByRole('list', { name: 'Files sent with this message' });
    await expect(chips.getByRole('listitem')).toHaveText([new RegExp(`${first}\\s*TXT`), new RegExp(`${second}\\s*TXT`)]);
    await expectReplyComplete(page);
    await expect(page.getByRole('button', { name: '2 Documents', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.reload();
    await expect(page.getByRole('article', { name: 'Your message' }).last().getByRole('listitem')).toHaveText([
      new RegExp(first),
      new RegExp(second),
    ]);
  });
});

test.describe('feature controls', () => {
  test('the Features menu checks the chosen option and says the two exclude each other; reasoning is a labelled choice', async ({ page }) => {
    test.slow();
    await signInAndLand(page, accounts.user, /\/chat$/);
    const form = page.locator('form');
    await form.getByRole('button', { name: 'Features' }).click();
    const menu = page.getByRole('menu', { name: 'Features' });
    await expect(page.getByText(EXCLUSIVE_NOTE)).toBeVisible();
    await expect(menu).toHaveAccessibleDescription(EXCLUSIVE_NOTE);
    await expect(menu.getByRole('menuitemcheckbox', { name: /Web Browsing/ })).toHaveAttribute('aria-checked', 'false');
    await menu.getByRole('menuitemcheckbox', { name: /Image Generation/ }).click();
    await expect(form.getByRole('button', { name: 'Features: Image Generation' })).toBeVisible();
    await form.getByRole('button', { name: 'Features: Image Generation' }).click();
    await expect(menu.getByRole('menuitemcheckbox', { name: /Image Generation/ })).toHaveAttribute('aria-checked', 'true');
    await expectNoAxeViolations(page);
    // Choosing browsing turns image generation off.
    await menu.getByRole('menuitemcheckbox', { name: /Web Browsing/ }).click();
    await expect(form.getByRole('button', { name: 'Features: Web Browsing' })).toBeVisible();

    // Reasoning effort: the current value is in the button's name; the menu checks it.
    const reasoning = form.getByRole('button', { name: 'Reasoning: Low' });
    await expect(reasoning).toHaveText(/Reasoning: Low/);
    await reasoning.click();
    // The menu is named by its trigger ('Reasoning: Low').
    const effort = page.getByRole('menu', { name: /Reasoning/ });
    await expect(effort.getByRole('menuitemradio', { name: /Low/ })).toHaveAttribute('aria-checked', 'true');
    await expectNoAxeViolations(page);
    await effort.getByRole('menuitemradio', { name: /Medium/ }).click();
    await expect(form.getByRole('button', { name: 'Reasoning: Medium' })).toBeVisible();
    const sent = page.waitForRequest((r) => r.url().includes('/api/v1/chat/messages') && r.method() === 'POST');
    await messageBox(page).fill(unique('Think about this'));
    await messageBox(page).press('Enter');
    expect((await sent).postDataJSON()).toMatchObject({ reasoning_effort: 'medium', browsing: true, image_generation: false });
  });

  test('without a search provider, web browsing is shown disabled with the reason; without an image model, demo images are labelled', async ({ page }) => {
    test.slow();
    // The server as it is configured without SEARCH_PROVIDER and IMAGES_MODEL (the e2e server has a search provider).
    await page.route('**/api/v1/chat/tools?*', (route) =>
      route.fulfill({
        json: { status: 'success', data: { web_browsing: { available: false, reason: WEB_BROWSING_UNAVAILABLE }, image_generation: { demo: true } } },
      }),
    );
    await signInAndLand(page, accounts.user, /\/chat$/);
    await page.locator('form').getByRole('button', { name: 'Features' }).click();
    const menu = page.getByRole('menu', { name: 'Features' });
    const browsing = menu.getByRole('menuitemcheckbox', { name: /Web Browsing/ });
    await expect(browsing).toHaveAttribute('aria-disabled', 'true');
    await expect(browsing).toContainText(WEB_BROWSING_UNAVAILABLE);
    await expect(menu.getByRole('menuitemcheckbox', { name: /Image Generation/ })).toContainText('Demo images');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');

    // Another package (no image generation): the single browsing toggle, disabled with the reason.
    await page.route('**/api/v1/users/me?*', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { features: string[] } };
      json.data.features = json.data.features.filter((f) => f !== 'image_generation');
      await route.fulfill({ response, json });
    });
    await page.reload();
    const toggle = page.locator('form').getByRole('button', { name: 'Web browsing' });
    await expect(toggle).toBeDisabled();
    await expect(toggle).toHaveAccessibleDescription(WEB_BROWSING_UNAVAILABLE);
  });
});
