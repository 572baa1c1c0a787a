import { expect, type Page } from '@playwright/test';
import { UPLOADING_MS } from '../../../machines/upload.machine';

/** The input box's upload overlay, showing the batch's stage. */
export const uploadOverlay = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Uploading|Chunking text|Creating embeddings|Saving chunks/ });

/**
 * Moves the upload stages' clock on until no batch is attaching: Playwright's clock, installed (`page.clock.install()`)
 * before the page loaded. A batch shows 'Uploading' for at least 6 s, then later stages while the server still
 * works; tests that check what comes after wait none of it out. attachments.spec.ts's first test keeps the real timing.
 */
export async function runOutUploadStages(page: Page) {
  await expect(async () => {
    if ((await uploadOverlay(page).count()) > 0) await page.clock.fastForward(UPLOADING_MS);
    await expect(uploadOverlay(page)).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}
