import { expect, test, type Page } from '@playwright/test';
import { DOCUMENT_DELETED, DOCUMENT_UPLOADED, UPLOAD_TYPE_REFUSED } from '../../contract/documents-constants';
import { uploadFailureText } from '../../machines/upload.machine';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { assistantMessages, expectReplyComplete, messageBox, unique } from './paths/paths-support';
import { dropFiles, pasteFiles, type PageFile } from './paths/upload.page-files';
import { runOutUploadStages } from './helpers/upload-stages';
import { openSeededConversation } from './helpers/seed';

/**
 * The input box's attachments (spec chat-and-session.md "Chat input box", "Upload progress stages", section 5
 * Accepted upload types, section 8 Documents) against the real server and its offline responder: the upload, the
 * server's ingestion and the retrieval are real. The first test keeps the product's stage timings (a batch shows
 * 'Uploading' for at least 6 s); the others move the stages on with Playwright's clock.
 */

const text = (name: string, body: string): PageFile => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body, 'utf8') });
/** A real 1x1 PNG (the server checks the content, not the name). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const sendButton = (page: Page) => page.getByRole('button', { name: 'Send message' });
const attachedFiles = (page: Page) => page.getByRole('list', { name: 'Attached files' });
const overlay = (page: Page) => page.getByRole('status').filter({ hasText: /Uploading|Chunking text|Creating embeddings|Saving chunks/ });

test.describe('attachments in the input box', () => {
  test('a dropped document shows the stages, is listed, goes with the question and is quoted and cited', async ({ page }) => {
    test.slow();
    await signInAndLand(page, accounts.user, /\/chat$/);
    await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();

    const code = Math.random().toString(36).slice(2, 8);
    const sentence = `The orchard ${code} harvests its quince trees on the second Tuesday of October.`;
    const name = `orchard-${code}.txt`;
    await dropFiles(page, [text(name, `Orchard notes.\n\n${sentence}\n\nEnd of notes.\n`)]);

    // The overlay covers the text area with the stage; Send is off until the file is ready.
    await expect(overlay(page)).toHaveText(/Uploading/);
    await messageBox(page).fill(`When does orchard ${code} harvest its quince trees?`);
    await expect(sendButton(page)).toBeDisabled();
    // More files may be added meanwhile: they wait for the next batch (issue 28), so Attach stays on.
    await expect(page.getByRole('button', { name: 'Attach files' })).toBeEnabled();
    await expect(page.getByText(DOCUMENT_UPLOADED)).toBeVisible({ timeout: 30_000 });
    await expect(overlay(page)).toHaveCount(0);
    const item = attachedFiles(page).getByRole('listitem').filter({ hasText: name });
    await expect(item).toContainText(/\d+ Bytes · TXT/);
    await expect(sendButton(page)).toBeEnabled();
    await expectNoAxeViolations(page);

    // The question carries the file (the new-chat screen: it joins the conversation this message creates).
    const sent = page.waitForRequest((r) => r.url().includes('/api/v1/chat/messages') && r.method() === 'POST');
    await sendButton(page).click();
    const body = (await sent).postDataJSON() as { document_ids?: string[] };
    expect(body.document_ids).toHaveLength(1);
    // Taken with the message: the list empties.
    await expect(attachedFiles(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/chat\?id=/);
    await expectReplyComplete(page);

    // The offline responder quotes the passage retrieved from the file and cites it with a document card.
    const reply = assistantMessages(page).last();
    await expect(reply).toContainText(`harvests its quince trees on the second Tuesday of October`);
    await expect(reply.getByRole('link', { name: new RegExp(name.replace('.', '\\.')) })).toBeVisible();
    await expect(page.getByRole('button', { name: '1 Document', exact: true })).toBeVisible();
  });

  test('a pasted image is listed with its preview; a refused file says why; a listed file can be deleted', async ({ page }) => {
    test.slow();
    await page.clock.install();
    await signInByApi(page, accounts.user);
    await openSeededConversation(page, unique('I will paste a picture'));
    await expect(page.getByRole('button', { name: '0 Documents', exact: true })).toBeVisible();

    const image = `screenshot-${Math.random().toString(36).slice(2, 8)}.png`;
    await pasteFiles(page, [{ name: image, mimeType: 'image/png', buffer: PNG_1X1 }]);
    await expect(overlay(page)).toHaveText(/Uploading/);
    await runOutUploadStages(page);
    await expect(page.getByText(DOCUMENT_UPLOADED)).toBeVisible();
    const item = attachedFiles(page).getByRole('listitem').filter({ hasText: image });
    await expect(item).toContainText(/\d+ Bytes · PNG/);
    const preview = item.getByRole('img', { name: `Preview of ${image}` });
    await expect(preview).toBeVisible();
    // Loaded from its unguessable file URL (an <img> sends no token).
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    // Uploaded into this conversation: its documents list counts it.
    await expect(page.getByRole('button', { name: '1 Document', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    // A file whose content is not an accepted type: refused by the server, with its reason.
    await dropFiles(page, [{ name: 'tool.txt', mimeType: 'text/plain', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]) }]);
    // Said as soon as the server answers (issue 28), without waiting out the 'Uploading' stage.
    await expect(page.getByText(/^Failed to upload document: /)).toBeVisible({ timeout: 30_000 });
    await expect(overlay(page)).toHaveCount(0);
    await expect(attachedFiles(page).getByRole('listitem')).toHaveCount(1);

    // Deleting the listed image: a spinner on its button, then it is gone.
    await item.getByRole('button', { name: `Delete ${image}` }).click();
    await expect(page.getByText(DOCUMENT_DELETED)).toBeVisible();
    await expect(attachedFiles(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: '0 Documents', exact: true })).toBeVisible();
  });

  test('the picker takes the accepted types only; an unaccepted one is refused with the server reason', async ({ page }) => {
    test.slow();
    await signInAndLand(page, accounts.user, /\/chat$/);
    const input = page.getByTestId('attach-files-input');
    await expect(input).toHaveAttribute('accept', '.jpeg,.jpg,.png,.pdf,.txt,.docx,.xlsx,.pptx,.csv,.md,.mp3,.m4a');
    await input.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00]) });
    await expect(page.getByText(uploadFailureText([{ name: 'setup.exe', detail: UPLOAD_TYPE_REFUSED }]))).toBeVisible({ timeout: 30_000 });
    await expect(attachedFiles(page)).toHaveCount(0);
  });

  test('features: premium gets the dropdown, another package one browsing toggle; what is on shows in words', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    // The demo organisation is premium: the features menu.
    await expect(page.getByRole('button', { name: 'Features' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Web browsing' })).toHaveCount(0);

    // Another package (the server's features without image generation, as GET /users/me gives them after a reload).
    await page.route('**/api/v1/users/me?*', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { features: string[] } };
      json.data.features = json.data.features.filter((f) => f !== 'image_generation');
      await route.fulfill({ response, json });
    });
    await page.reload();
    // In the input box (a reply's tools marker is a 'Web browsing' button too).
    const toggle = page.locator('form').getByRole('button', { name: 'Web browsing' });
    await expect(toggle).toBeVisible();
    await expect(page.getByRole('button', { name: 'Features' })).toHaveCount(0);
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(toggle).toContainText('Web Browsing');
    await expectNoAxeViolations(page);
    const sent = page.waitForRequest((r) => r.url().includes('/api/v1/chat/messages') && r.method() === 'POST');
    await messageBox(page).fill(unique('What is new in the news'));
    await messageBox(page).press('Enter');
    expect((await sent).postDataJSON()).toMatchObject({ browsing: true, image_generation: false });
    await toggle.click();
    await expect(toggle).not.toContainText('Web Browsing');
  });
});
