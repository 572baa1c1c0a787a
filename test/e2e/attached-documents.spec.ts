import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { DOCUMENT_DELETED } from '../../contract/documents-constants';
import { NO_CONVERSATION_SELECTED } from '../../machines/conversation-documents.machine';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { textDocument, uploadDocument, waitUntilProcessed } from './helpers/documents-api';
import { ask, assistantMessages, expectReplyComplete, signedInToken, unique } from './paths/paths-support';
import { openSeededConversation } from './helpers/seed';

const documentsDialog = (page: Page) => page.getByRole('dialog', { name: 'Attached Documents' });
const documentsButton = (page: Page, label: string) => page.getByRole('button', { name: label, exact: true });

test.describe('attached documents', () => {
  test('the header counts them; the modal downloads and deletes; a reply cites one and its card downloads', async ({ page, request }) => {
    test.slow();
    await signInByApi(page, accounts.user);
    const conversationId = await openSeededConversation(page, unique('Hello, I will attach a note'));
    await expect(documentsButton(page, '0 Documents')).toBeVisible();

    // A document only it knows about, uploaded as the input box uploads (multipart), processed by the server.
    const code = Math.random().toString(36).slice(2, 8);
    const sentence = `The keeper of lighthouse ${code} stores the spare lantern oil in the blue cellar.`;
    const name = `lighthouse-${code}.txt`;
    const token = await signedInToken(page);
    const uploaded = await uploadDocument(request, token, conversationId, textDocument(name, sentence));
    expect((await waitUntilProcessed(request, token, uploaded.id)).status).toBe('ready');

    // A completed exchange reads the list again (a reply may bring a document); here, asking about the note.
    await ask(page, `Where does the keeper of lighthouse ${code} store the spare lantern oil?`);
    await expectReplyComplete(page);
    await expect(documentsButton(page, '1 Document')).toBeVisible();

    // The reply cites the note with a document card; a click downloads it with the token (a plain link could not).
    const card = assistantMessages(page).last().getByRole('link', { name: new RegExp(name.replace('.', '\\.')) });
    await expect(card).toBeVisible();
    const [cardDownload] = await Promise.all([page.waitForEvent('download'), card.click()]);
    expect(cardDownload.suggestedFilename()).toBe(name);
    expect(await readFile(await cardDownload.path(), 'utf8')).toContain(sentence);

    // Attached Documents: name, size (1024-based), type and date; a click on the document downloads it.
    await documentsButton(page, '1 Document').click();
    const dialog = documentsDialog(page);
    await expect(dialog).toBeVisible();
    const row = dialog.getByRole('listitem').filter({ hasText: name });
    await expect(row).toContainText(/\d+ Bytes · TXT · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} (AM|PM)/);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download ${name}` }).click()]);
    expect(download.suggestedFilename()).toBe(name);
    expect(await readFile(await download.path(), 'utf8')).toContain(sentence);

    // Delete Document: Cancel keeps it, Delete removes it; the header counts again.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Document' });
    await expect(confirm).toContainText(name);
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    // The confirmation closes slowly, as on a busy machine: it gives the focus back only after the list has lost the
    // deleted document's button (a single check of the focus, 300 ms after the delete, missed it then).
    await page.addStyleTag({ content: '[data-exiting] { transition-duration: 1s !important; }' });
    await page.getByRole('alertdialog', { name: 'Delete Document' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(DOCUMENT_DELETED)).toBeVisible();
    await expect(dialog.getByText('No documents are attached to this conversation.')).toBeVisible();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    // The deleted document's button is gone; the focus stays in the dialog, so Escape still closes it.
    await expect
      .poll(() => page.evaluate(() => document.querySelector('[role="dialog"]')?.contains(document.activeElement)), { timeout: 3_000 })
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(documentsButton(page, '0 Documents')).toBeVisible();

    // Gone on the server too: the file is not found any more.
    const gone = await request.get(`/api/v1/documents/${uploaded.id}/file`, { headers: { Authorization: `Bearer ${token}` } });
    expect(gone.status()).toBe(404);
  });

  test("the new-chat screen has no documents to show: 'No conversation selected'", async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    await documentsButton(page, '0 Documents').click();
    await expect(page.getByText(NO_CONVERSATION_SELECTED)).toBeVisible();
    await expect(documentsDialog(page)).toHaveCount(0);
  });
});
