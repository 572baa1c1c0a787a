import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import { DOCUMENT_DELETE_FAILED, DOCUMENT_DELETED, DOCUMENT_UPLOADED, DOCUMENTS_FETCH_FAILED } from '../../../contract/documents-constants';
import { DOCUMENT_DOWNLOAD_FAILED, documentsLabel, NO_CONVERSATION_SELECTED } from '../../../machines/conversation-documents.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { textDocument, uploadDocument, waitUntilProcessed } from '../helpers/documents-api';
import { conversationDocumentsMachine, conversationDocumentsPaths as paths } from './conversation-documents.paths-model';
import { errorEnvelope, signedInToken, unique, type Step } from './paths-support';
import { seededConversation } from '../helpers/seed';
import { withinRateLimits } from '../helpers/rate-limits';
import { pickFiles } from './upload.page-files';

/**
 * The conversation-documents machine's generated paths (machines/conversation-documents.machine.ts, the model in
 * conversation-documents.paths-model.ts), driven through the real header button and Attached Documents modal of a
 * conversation the test makes with one uploaded note. The list (the machine's pager child, whose failed read is
 * the `notice.show` it passes on), the delete and the download come from the real server; forced in the browser
 * with stubs, locally and against a deployment alike: each of them answering 500. A file attached in the input box
 * is really uploaded (the header counts it once its upload is over: `documents.changed`); it is deleted with the
 * conversation's documents at the end.
 */
const LIST = (url: URL) => url.pathname === '/api/v1/documents/';
const ANY_DOCUMENT = (url: URL) => url.pathname.startsWith('/api/v1/documents/');
const FILE = (url: URL) => /^\/api\/v1\/documents\/[^/]+\/file$/.test(url.pathname);
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Attached Documents' });
const confirm = (page: Page) => page.getByRole('alertdialog', { name: 'Delete Document' });
const fail = (page: Page, match: (url: URL) => boolean, method: string) =>
  page.route(match, (route) => (route.request().method() === method ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));
/** The list's next read, answered (by the server or a stub). */
const listRead = (page: Page) => page.waitForResponse((r) => LIST(new URL(r.url())) && r.request().method() === 'GET');

interface Run {
  page: Page;
  name: string;
  sentence: string;
  /** What the server holds. */
  count: number;
  download: Promise<Download> | null;
  /** On the new-chat screen (the machine's `none`). */
  newChat: boolean;
  /** The documents the test made (deleted at its end). */
  made: string[];
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, name } = run;
  const failsNext = (type: string) => next?.type === `xstate.error.actor.${type}`;
  // The list's read that the step starts fails (the toast it passes on is the next step).
  const readFails = next?.type === 'notice.show';
  switch (event.type) {
    case 'notice.show':
      await expect(page.getByText(DOCUMENTS_FETCH_FAILED).first()).toBeVisible();
      await page.unroute(LIST);
      return;
    case 'documents.changed': {
      // A file attached in the input box: once its upload is over, the header counts it without a reload.
      const attached = textDocument(`attached-${name}`, `Attached to ${name}.`);
      const upload = page.waitForResponse((r) => r.url().includes('/api/v1/documents/upload/') && r.request().method() === 'POST');
      await pickFiles(page, [attached]);
      run.made.push(((await (await upload).json()) as { data: { id: string } }).data.id);
      await expect(page.getByText(DOCUMENT_UPLOADED)).toBeVisible({ timeout: 30_000 });
      run.count += 1;
      await expect(page.getByRole('button', { name: documentsLabel(run.count), exact: true })).toBeVisible();
      return;
    }
    case 'conversation.open':
      await page.getByRole('button', { name: 'New Chat' }).click();
      await expect(page).toHaveURL(/\/chat$/);
      await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
      // A new chat has no documents (the file attached there went with the conversation).
      run.newChat = true;
      await expect(page.getByRole('button', { name: documentsLabel(0), exact: true })).toBeVisible();
      return;
    case 'documents.open': {
      if (run.newChat) {
        await page.getByRole('button', { name: documentsLabel(0), exact: true }).click();
        await expect(page.getByText(NO_CONVERSATION_SELECTED)).toBeVisible();
        await expect(dialog(page)).toHaveCount(0);
        return;
      }
      if (readFails) await fail(page, LIST, 'GET');
      const read = listRead(page);
      await page.getByRole('button', { name: /^\d+ Documents?$/ }).click();
      await expect(dialog(page)).toBeVisible();
      // Opening reads the list again; what it showed stays meanwhile.
      await read;
      if (run.count > 0) await expect(dialog(page).getByRole('button', { name: `Download ${name}` })).toBeVisible();
      return;
    }
    case 'documents.retry': {
      if (readFails) await fail(page, LIST, 'GET');
      const read = listRead(page);
      await dialog(page).getByRole('button', { name: 'Try again' }).click();
      await read;
      if (!readFails) {
        await expect(dialog(page).getByRole('button', { name: 'Try again' })).toHaveCount(0);
        await expect(dialog(page).getByRole('button', { name: `Download ${name}` })).toBeVisible();
      }
      return;
    }
    case 'documents.close':
      // After a delete the focus comes back into the dialog once the confirmation has gone; Escape needs it there.
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toHaveCount(0);
      await expect(page.getByRole('button', { name: documentsLabel(run.count), exact: true })).toBeVisible();
      return;
    case 'document.delete':
      await dialog(page).getByRole('button', { name: `Delete ${name}` }).click();
      await expect(confirm(page)).toContainText(name);
      return;
    case 'delete.cancel':
      await confirm(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm(page)).toHaveCount(0);
      await expect(dialog(page).getByRole('button', { name: `Download ${name}` })).toBeVisible();
      return;
    case 'delete.confirm':
      if (failsNext('deleteDocument')) await fail(page, ANY_DOCUMENT, 'DELETE');
      await confirm(page).getByRole('button', { name: 'Delete' }).click();
      return;
    case 'xstate.done.actor.deleteDocument':
      run.count = 0;
      await expect(page.getByText(DOCUMENT_DELETED)).toBeVisible();
      await expect(dialog(page).getByRole('button', { name: `Download ${name}` })).toHaveCount(0);
      await expect(page.getByRole('button', { name: documentsLabel(0), exact: true })).toBeVisible();
      return;
    case 'xstate.error.actor.deleteDocument':
      await expect(page.getByText(DOCUMENT_DELETE_FAILED)).toBeVisible();
      await expect(dialog(page).getByRole('button', { name: `Download ${name}` })).toBeVisible();
      await page.unroute(ANY_DOCUMENT);
      return;
    case 'document.download':
      if (failsNext('downloadDocument')) await fail(page, FILE, 'GET');
      else run.download = page.waitForEvent('download');
      await dialog(page).getByRole('button', { name: `Download ${name}` }).click();
      return;
    case 'xstate.done.actor.downloadDocument': {
      const download = await run.download!;
      expect(download.suggestedFilename()).toBe(name);
      expect(await readFile(await download.path(), 'utf8')).toContain(run.sentence);
      return;
    }
    case 'xstate.error.actor.downloadDocument':
      await expect(page.getByText(DOCUMENT_DOWNLOAD_FAILED)).toBeVisible();
      await page.unroute(FILE);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

test.describe('conversation-documents paths (generated from machines/conversation-documents.machine.ts)', () => {
  test.afterAll(() => {
    console.log(
      formatCoverage('conversation-documents (e2e paths)', coverageOf(conversationDocumentsMachine, paths as never), paths.length),
    );
  });

  for (const path of paths) {
    test(path.description, async ({ page, request }) => {
      test.slow();
      await signInByApi(page, accounts.user);
      const token = await signedInToken(page);
      const conversationId = await seededConversation(request, unique('A conversation with a note'));
      const code = Math.random().toString(36).slice(2, 8);
      const run: Run = {
        page,
        name: `note-${code}.txt`,
        sentence: `Note ${code} says the meeting moved to Thursday.`,
        count: 1,
        download: null,
        newChat: false,
        made: [],
      };
      try {
        const uploaded = await uploadDocument(request, token, conversationId, textDocument(run.name, run.sentence));
        run.made.push(uploaded.id);
        await waitUntilProcessed(request, token, uploaded.id);
        const firstReadFails = path.events[0]?.type === 'notice.show';
        if (firstReadFails) await fail(page, LIST, 'GET');
        // The path starts when the conversation opens (its list reads the documents).
        await page.goto(`/chat?id=${encodeURIComponent(conversationId)}`);
        if (!firstReadFails) await expect(page.getByRole('button', { name: documentsLabel(run.count), exact: true })).toBeVisible();
        for (const [i, event] of path.events.entries()) {
          await test.step(event.type, () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        // What the test made goes (a staging organisation keeps no trace of repeated runs): its documents (a path
        // may have deleted one already), then the conversation.
        const headers = { Authorization: `Bearer ${token}` };
        for (const id of run.made) {
          const gone = await withinRateLimits(() => request.delete(`/api/v1/documents/${encodeURIComponent(id)}`, { headers }));
          expect([200, 204, 404]).toContain(gone.status());
        }
        const deleted = await withinRateLimits(() => request.delete(`/api/v1/chat/conversations/${encodeURIComponent(conversationId)}`, { headers }));
        expect(deleted.ok()).toBe(true);
      }
    });
  }
});
