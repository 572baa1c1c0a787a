import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import { initialTransition, transition } from 'xstate';
import type { DocumentView } from '../../../contract/documents';
import { type Notice } from '../../../machines/notice';
import { documentsLabel } from '../../../machines/conversation-documents.machine';
import { CHUNKING_MS, EMBEDDING_MS, UPLOADING_MS, uploadStageOf, type UploadOutcome, type UploadSnapshot } from '../../../machines/upload.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { dropFiles, pasteFiles, pickFiles, type PageFile } from './upload.page-files';
import { AFTER, CONVERSATION, FILE_SETS, uploadMachine, uploadPaths as paths, type FileSetName, type ModelFile } from './upload.paths-model';
import {
  apiTokenOf,
  errorEnvelope,
  expectReplyComplete,
  messageBox,
  revealConversationLink,
  unique,
  type Step,
} from './paths-support';
import { seededConversation } from '../helpers/seed';
import { withinRateLimits } from '../helpers/rate-limits';

/**
 * The upload machine's generated paths (machines/upload.machine.ts, the model in upload.paths-model.ts), driven
 * through the real input box: files picked, dropped and pasted, a listed file deleted, a message sent with them,
 * and a new chat or another conversation opened (mid-upload: the batch is cancelled). The uploads, the ingestion
 * and its status checks are the real server's, and the stage clock is the product's own (at least 6 s of
 * 'Uploading' per batch), moved on with Playwright's clock at the model's clock steps. Forced in the browser, locally
 * and against a deployment alike (E2E_BASE_URL): an upload held back by a route until the clock has run to 'Saving
 * chunks' (then let through to the server), and a delete answering 500 (a stub). More files than a message takes,
 * dropped while a batch still shows 'Uploading', are refused with the batch going on.
 *
 * After each step the screen is checked against the model's snapshot: the overlay's stage (`uploadStageOf`), the
 * listed files, Send off while a batch attaches (Attach files stays on: what is added then queues), the toasts the machine reported and, in a
 * conversation, its documents count in the header.
 */
const UPLOAD = (url: URL) => url.pathname === '/api/v1/documents/' || url.pathname.startsWith('/api/v1/documents/upload/');
const DOCUMENT = (url: URL) => /^\/api\/v1\/documents\/[^/]+$/.test(url.pathname) && !url.pathname.startsWith('/api/v1/documents/upload');

/** A real 1x1 PNG (the server checks the content, not the name). */
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
/** A Windows program's first bytes: not text, whatever the name says. */
const PROGRAM = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]);

/** How long each stage of the clock lasts (the machine's delays). */
const STAGE_MS: Record<string, number> = { [AFTER.uploading]: UPLOADING_MS, [AFTER.chunking]: CHUNKING_MS, [AFTER.embedding]: EMBEDDING_MS };

const attachedFiles = (page: Page) => page.getByRole('list', { name: 'Attached files' });
const overlay = (page: Page) => page.getByRole('status').filter({ hasText: /Uploading|Chunking text|Creating embeddings|Saving chunks/ });
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The bytes of a model file: an image, a program (refused), or a note. */
function pageFile(file: ModelFile): PageFile {
  if (file.type === 'image/png') return { name: file.name, mimeType: file.type, buffer: PNG_1X1 };
  if (file.refusal) return { name: file.name, mimeType: file.type, buffer: PROGRAM };
  return { name: file.name, mimeType: file.type, buffer: Buffer.from(`Notes in ${file.name}.\n\nThe team meets on Thursday.\n`, 'utf8') };
}

interface Run {
  page: Page;
  /** The test's conversation (CONVERSATION in the model), when the path opens one. */
  conversationId: string | null;
  /** The server's answers to uploads, in arrival order. */
  uploads: Array<{ status: number; document: DocumentView | null }>;
  /** Documents a status check found ready. */
  ready: Set<string>;
  /** Documents the server deleted. */
  deleted: Set<string>;
  /** Model document id -> the server's. */
  ids: Map<string, string>;
  /** Uploads held back (the clock runs ahead of the server). */
  held: Route[];
  /** Deletes held back until the path says how they end. */
  heldDeletes: Route[];
  /** Uploads the model has seen answered so far. */
  answered: number;
}

function record(run: Run) {
  run.page.on('response', async (response) => {
    const url = new URL(response.url());
    const method = response.request().method();
    if (method === 'POST' && UPLOAD(url)) {
      const body = (await response.json().catch(() => null)) as { data?: DocumentView } | null;
      run.uploads.push({ status: response.status(), document: response.status() === 201 ? body!.data! : null });
    } else if (method === 'GET' && DOCUMENT(url) && response.ok()) {
      // A check answered as the page leaves (conversation.open to a new chat) has no body left to read: it tells
      // nothing, and reading it must not fail the test (a flake in CI).
      const body = (await response.json().catch(() => null)) as { data: DocumentView } | null;
      if (body?.data.status === 'ready') run.ready.add(body.data.id);
    } else if (method === 'DELETE' && DOCUMENT(url) && response.ok()) {
      run.deleted.add(decodeURIComponent(url.pathname.split('/').pop()!));
    }
  });
}

/** The documents the server holds in the test's conversation (uploaded there, not deleted). */
function heldInConversation(run: Run) {
  return run.uploads.filter((u) => u.document && u.document.conversation_id === run.conversationId && !run.deleted.has(u.document.id)).length;
}

async function perform(run: Run, event: Step, next: Step | undefined, before: UploadSnapshot) {
  const { page } = run;
  switch (event.type) {
    case 'files.add': {
      const set = FILE_SETS[event.set as FileSetName];
      // The server held back: the clock runs ahead of the upload (released with the upload's answer).
      if (next?.type === AFTER.uploading) {
        await page.route(UPLOAD, (route) => (route.request().method() === 'POST' ? void run.held.push(route) : route.fallback()));
      }
      const files = set.files.map(pageFile);
      if (set.via === 'picker') await pickFiles(page, files);
      else if (set.via === 'drop') await dropFiles(page, files);
      else await pasteFiles(page, files);
      return;
    }
    case 'xstate.done.actor.uploadFiles': {
      for (const route of run.held.splice(0)) await route.continue();
      await page.unroute(UPLOAD);
      const outcomes = event.output as UploadOutcome[];
      run.answered += outcomes.length;
      await expect.poll(() => run.uploads.length).toBeGreaterThanOrEqual(run.answered);
      const answers = run.uploads.slice(run.answered - outcomes.length, run.answered);
      // Each file as the model says: stored (matched by name: the answers come in any order) or refused.
      const unmatched = [...answers];
      for (const outcome of outcomes) {
        const answer = unmatched.find((a) => (outcome.document ? a.document?.filename === outcome.name : a.status === 415));
        expect(answer, `the server's answer to ${outcome.name}`).toBeDefined();
        unmatched.splice(unmatched.indexOf(answer!), 1);
        if (outcome.document) {
          expect(answer!.document!.status).toBe(outcome.document.status);
          run.ids.set(outcome.document.id, answer!.document!.id);
        }
      }
      return;
    }
    case 'poll.progress': {
      // The check that finds them ready (a slower server may answer 'chunking' first: the same path, a step later).
      const ids = (event.value as DocumentView[]).map((d) => run.ids.get(d.id)!);
      await expect.poll(() => ids.every((id) => run.ready.has(id))).toBe(true);
      return;
    }
    case 'xstate.done.actor.watch':
      // The poll ends with the answer that found them ready (the previous step).
      return;
    case AFTER.uploading:
    case AFTER.chunking:
    case AFTER.embedding:
      // The clock's, moved on at once rather than waited out (Playwright's clock, installed before the page
      // loaded): what a stage shows is checked before and after, the 6-8 s between tell nothing. The real
      // timings are kept by attachments.spec.ts's first test. The screen check waits for the next stage.
      await page.clock.fastForward(STAGE_MS[event.type]);
      return;
    case 'file.delete': {
      const name = event.name as string;
      const held = next?.type === 'xstate.error.actor.deleteDocument';
      if (held) await page.route(DOCUMENT, (route) => (route.request().method() === 'DELETE' ? void run.heldDeletes.push(route) : route.fallback()));
      // The model deletes the first listed file (a path may list two of one name: the first is the earlier).
      await attachedFiles(page).getByRole('listitem').filter({ hasText: name }).first().getByRole('button', { name: `Delete ${name}` }).click();
      // Held, the delete shows its spinner until the answer comes.
      if (held) await expect(page.getByRole('status').filter({ hasText: `Deleting ${name}` })).toBeVisible();
      return;
    }
    case 'xstate.done.actor.deleteDocument':
      await expect.poll(() => run.deleted.has(run.ids.get(before.context.deletingDocumentId!)!)).toBe(true);
      return;
    case 'xstate.error.actor.deleteDocument':
      await expect.poll(() => run.heldDeletes.length).toBe(1);
      await run.heldDeletes.pop()!.fulfill(errorEnvelope(500, 'Internal Server Error'));
      await page.unroute(DOCUMENT);
      return;
    case 'attachments.sent': {
      const sent = page.waitForRequest((r: Request) => r.url().includes('/api/v1/chat/messages') && r.method() === 'POST');
      await messageBox(page).fill(unique('What do the attached notes say'));
      await page.getByRole('button', { name: 'Send message' }).click();
      const body = (await sent).postDataJSON() as { document_ids?: string[] };
      expect(body.document_ids).toEqual((event.documentIds as string[]).map((id) => run.ids.get(id)));
      await expectReplyComplete(page);
      return;
    }
    case 'conversation.open': {
      const target = event.conversationId as string | null;
      if (target === null) {
        await page.getByRole('button', { name: 'New Chat', exact: true }).click();
        await expect(page).toHaveURL(/\/chat$/);
        await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
        return;
      }
      expect(target).toBe(CONVERSATION);
      await (await revealConversationLink(page, run.conversationId!)).click();
      await expect(page).toHaveURL(new RegExp(`id=${run.conversationId}$`));
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type} (from ${JSON.stringify(before.value)})`);
  }
}

/** The screen as the model's snapshot says, and the toasts the step's transition reported. */
async function expectScreen(run: Run, snapshot: UploadSnapshot, notices: Notice[]) {
  const { page } = run;
  for (const n of notices) await expect(page.getByText(n.text, { exact: true }).first()).toBeVisible();
  const stage = uploadStageOf(snapshot);
  if (stage) await expect(overlay(page)).toHaveText(`${stage}...`);
  else await expect(overlay(page)).toHaveCount(0);
  const names = snapshot.context.files.map((f) => f.filename);
  if (names.length) await expect(attachedFiles(page).getByRole('listitem')).toHaveText(names.map((n) => new RegExp(escape(n))));
  else await expect(attachedFiles(page)).toHaveCount(0);
  // Send is off while files attach (spec section 4, rule 7), whatever is typed; on again after.
  if ((await messageBox(page).inputValue()) === '') await messageBox(page).fill(unique('A question about the files'));
  const attaching = snapshot.hasTag('attaching');
  await expect(page.getByRole('button', { name: 'Send message' })).toBeEnabled({ enabled: !attaching });
  // Attaching more stays open: files added meanwhile queue for the next batch.
  await expect(page.getByRole('button', { name: 'Attach files' })).toBeEnabled();
  // In a conversation its documents count follows every upload and delete once they are over.
  if (snapshot.context.conversationId !== null && !attaching && !snapshot.hasTag('deleting')) {
    await expect(page.getByRole('button', { name: documentsLabel(heldInConversation(run)), exact: true })).toBeVisible();
  }
}

/**
 * A state the screen passes through faster than a check can look: the answer that finds the documents ready also
 * ends the poll, a delete nothing holds back is answered at once, and so is a batch the server refuses whole (no
 * stage clock for it: its error shows as soon as the refusal comes, which a deployment's server sent before the
 * check could see Send off). Checked with the answer (the next step).
 */
const refusedWhole = (next: Step | undefined) =>
  next?.type === 'xstate.done.actor.uploadFiles' && (next.output as UploadOutcome[]).every((o) => o.document === null);
const answeredAtOnce = (event: Step, next: Step | undefined) =>
  (event.type === 'poll.progress' && next?.type === 'xstate.done.actor.watch') ||
  (event.type === 'file.delete' && next?.type === 'xstate.done.actor.deleteDocument') ||
  (event.type === 'files.add' && refusedWhole(next));

/** The path's title: which files and which conversation (the event types alone repeat), the clock's steps short. */
const titleOf = (events: Step[]) =>
  events
    .map((e) => {
      if (e.type === 'files.add') return `files.add(${e.set as string})`;
      if (e.type === 'conversation.open') return `conversation.open(${e.conversationId === null ? 'new chat' : 'conversation'})`;
      return e.type.replace(/^xstate\.after\.(\w+)\..*$/, 'after $1').replace(/^xstate\./, '');
    })
    .join(' → ');

const noticesOf = (actions: unknown[]) =>
  (actions as Array<{ type: string; params?: { event?: { type: string } } }>)
    .filter((a) => a.type === 'xstate.emit' && a.params?.event?.type === 'notice.show')
    .map((a) => a.params!.event as Notice);

test.describe('upload paths (generated from machines/upload.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('upload (e2e paths)', coverageOf(uploadMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(titleOf(path.events), async ({ page, request }) => {
      test.slow();
      const run: Run = { page, conversationId: null, uploads: [], ready: new Set(), deleted: new Set(), ids: new Map(), held: [], heldDeletes: [], answered: 0 };
      record(run);
      // Made before the page loads, so the sidebar lists it.
      if (path.events.some((e) => e.type === 'conversation.open' && e.conversationId === CONVERSATION)) {
        run.conversationId = await seededConversation(request, unique('A conversation for attachments'));
      }
      // Before the page loads, so the stage clock's timers are Playwright's to move on (time still flows).
      await page.clock.install();
      await signInAndLand(page, accounts.user, /\/chat$/);
      // The path starts on the new-chat screen.
      await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
      let [snapshot] = initialTransition(uploadMachine, path.input);
      try {
        for (const [i, event] of path.events.entries()) {
          await test.step(titleOf([event]), async () => {
            const before = snapshot;
            const [after, actions] = transition(uploadMachine, before, event as never);
            snapshot = after;
            await perform(run, event, path.events[i + 1], before);
            if (answeredAtOnce(event, path.events[i + 1])) return;
            await expectScreen(run, after, noticesOf(actions));
          });
        }
      } finally {
        // What the path stored goes (a staging organisation keeps no trace of repeated runs, and its per-person
        // storage does not fill): the documents the server still holds, then the test's conversation.
        for (const held of run.held.splice(0)) await held.abort().catch(() => null);
        const headers = { Authorization: `Bearer ${await apiTokenOf(request, accounts.user)}` };
        for (const u of run.uploads) {
          if (!u.document || run.deleted.has(u.document.id)) continue;
          const gone = await withinRateLimits(() => request.delete(`/api/v1/documents/${encodeURIComponent(u.document!.id)}`, { headers }));
          expect([200, 204, 404]).toContain(gone.status());
        }
        if (run.conversationId) {
          const deleted = await withinRateLimits(() => request.delete(`/api/v1/chat/conversations/${encodeURIComponent(run.conversationId!)}`, { headers }));
          expect(deleted.ok()).toBe(true);
        }
      }
    });
  }
});
