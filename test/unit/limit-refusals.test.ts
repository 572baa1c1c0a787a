import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { DocumentView } from '../../contract/documents';
import { DOCUMENT_UPLOAD_FAILED, DOCUMENTS_UPLOAD_FAILED, storageFull, tooManyUploads } from '../../contract/documents-constants';
import type { FeedbackReceipt, FeedbackRequest } from '../../contract/feedback';
import { tooManyFeedback } from '../../contract/feedback-constants';
import { promptLibraryFull, tooManyPromptSaves } from '../../contract/prompt-library-constants';
import { FEEDBACK_FAILED, feedbackMachine } from '../../machines/feedback.machine';
import type { Notice } from '../../machines/notice';
import { UPLOADING_MS, uploadFailureText } from '../../machines/upload.machine';
import { ApiError } from '../../src/api/api-error';
import { defineUploadMachine, type UploadApi } from '../../src/features/chat/documents-actors';
import { definePromptFormMachine, type PromptLibraryApi } from '../../src/features/chat/prompt-library-actors';
import { withServerDetail } from '../../src/lib/load-failure';

// What the SPA shows when the server refuses with a limit (429 or 413): the server's sentence, never a generic one.
// The fakes reject as the API client does for such an answer (test/unit/api-client.test.ts: `detail` into ApiError).

const refusal = (status: number, detail: string) => new ApiError({ status, detail });
const notices = (actor: { on: (type: 'notice.show', fn: (n: Notice) => void) => unknown }) => {
  const out: string[] = [];
  actor.on('notice.show', (n) => out.push(n.text));
  return out;
};

describe('limit refusals in the SPA', () => {
  it("the feedback form shows the server's 429 sentence (the modal's actor: withServerDetail around the call)", async () => {
    const detail = tooManyFeedback('60 minutes');
    const machine = feedbackMachine.provide({
      actors: {
        submit: fromPromise<FeedbackReceipt, FeedbackRequest>(() => withServerDetail(Promise.reject(refusal(429, detail)))),
      },
    });
    const actor = createActor(machine).start();
    const shown = notices(actor);
    actor.send({ type: 'feedback.open', kind: 'report' });
    actor.send({ type: 'field.description', text: 'The export button does nothing' });
    actor.send({ type: 'feedback.submit' });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(shown).toEqual([detail]);
    expect(shown).not.toContain(FEEDBACK_FAILED);
    actor.stop();
  });

  it.each([
    [429, tooManyPromptSaves('1 minute')],
    [413, promptLibraryFull(500)],
  ])("the prompt form shows the server's %i sentence", async (status, detail) => {
    const reject = () => Promise.reject(refusal(status, detail));
    const api = { createPrompt: reject, updatePrompt: reject } as unknown as PromptLibraryApi;
    const actor = createActor(definePromptFormMachine({ api }), {
      input: { id: null, prompt: 'Draft a reminder', tagsText: 'email', texts: { saved: 'Prompt saved', failed: 'Failed to save prompt' } },
    }).start();
    const shown = notices(actor);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(shown).toEqual([detail]);
    actor.stop();
  });

  describe('the attachments', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it("show each refused file's server sentence, one sentence for the files that share it", async () => {
      const full = storageFull('50 GB');
      const tooMany = tooManyUploads('1 minute');
      const api: UploadApi = {
        uploadDocument: (file: File) => Promise.reject(refusal(file.name === 'big.pdf' ? 413 : 429, file.name === 'big.pdf' ? full : tooMany)),
        fetchDocument: () => Promise.reject(new Error('nothing was stored')) as Promise<DocumentView>,
        deleteDocument: () => Promise.resolve(),
        currentUserId: () => 'u1',
      };
      const actor = createActor(defineUploadMachine({ api }), { input: { conversationId: 'c1' } }).start();
      const shown = notices(actor);
      const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'big.pdf'].map((name) => new File(['x'], name));
      actor.send({ type: 'files.add', files });
      await vi.advanceTimersByTimeAsync(UPLOADING_MS + 10);
      expect(shown).toEqual([`${DOCUMENTS_UPLOAD_FAILED}: a.txt, b.txt, c.txt and 2 more: ${tooMany}; big.pdf: ${full}`]);
      actor.stop();
    });
  });

  it('names a single refused file with its sentence, and two files with one reason once', () => {
    const tooMany = tooManyUploads('1 minute');
    expect(uploadFailureText([{ name: 'a.txt', detail: tooMany }])).toBe(`${DOCUMENT_UPLOAD_FAILED}: ${tooMany}`);
    expect(uploadFailureText([{ name: 'a.txt', detail: tooMany }, { name: 'b.txt', detail: tooMany }])).toBe(
      `${DOCUMENTS_UPLOAD_FAILED}: a.txt, b.txt: ${tooMany}`,
    );
  });
});
