import { assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { PromptEntry } from '../contract/prompt-library';
import { PROMPT_DELETED, PROMPT_PAGE_SIZE, PROMPT_SAVED, PROMPT_UPDATED } from '../contract/prompt-library-constants';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerInput } from './pager.machine';
import { promptFormMachine, type PromptFormInput } from './prompt-form.machine';
import { report, type ReportsTo } from './report';

/**
 * The Prompt Library modal (spec chat-and-session.md section 2 modals, section 4 "Prompt library", section 8
 * "Tips and prompts", section 9). The chat-screen machine spawns it (id `prompts`) when the modal opens and stops
 * it when the modal closes, so each opening starts with a fresh first page.
 *
 * Children: `list` (the pager, invoked for the whole life of the modal): 10 a page, View More appends the next
 * page, search after 1,500 ms of quiet asks for 50 a page, a tag filter. `form` (the prompt form, invoked in
 * `creating` and `editing`).
 *
 * States:
 * - `browsing`: the list. Copy (`prompt.copy`) writes the prompt into the clipboard in `browsing.copying`, and
 *   the copied prompt's button says so for COPIED_MS (`browsing.copied`, `copiedId`); 'Failed to copy prompt'.
 *   Paste (`prompt.paste`) reports `prompt.pasted` with its text: the screen puts it in the input box at the cursor
 *   and closes the modal; the box's answer decides the toast ('Prompt pasted to chat', or 'Failed to paste prompt
 *   to chat' when it could not take it), so a paste that failed is never called a success.
 * - `creating`: 'New Prompt' (a blank form; 'Prompt saved successfully'); the list is read again, so the new
 *   prompt shows where it belongs (on top, unless a search or a tag leaves it out).
 * - `loadingPrompt` -> `editing`: 'Edit Prompt' loads the prompt first (GET /prompt-libraries/{id}: another tab
 *   may have changed it); 'Failed to fetch prompt library details' returns to the list. Saved: 'Prompt updated
 *   successfully', the list shows the new text in place.
 * - `confirmingDelete` ('Delete Prompt') -> `deleting` (tag `busy`): 'Prompt deleted successfully' and the prompt
 *   leaves the list, or 'Failed to delete prompt' and it stays.
 * `form.cancel` leaves a form (or the load before it) for the list.
 */

export const PROMPTS_FAILED = 'Failed to fetch prompt libraries';
export const PROMPT_DETAILS_FAILED = 'Failed to fetch prompt library details';
export const SAVE_PROMPT_FAILED = 'Failed to save prompt';
export const UPDATE_PROMPT_FAILED = 'Failed to update prompt';
export const DELETE_PROMPT_FAILED = 'Failed to delete prompt';
export const COPY_PROMPT_FAILED = 'Failed to copy prompt';
export const PROMPT_PASTED = 'Prompt pasted to chat';
export const PASTE_PROMPT_FAILED = 'Failed to paste prompt to chat';
/** Spec section 9: the prompt search debounce, and the page size while searching. */
export const PROMPT_SEARCH_DEBOUNCE_MS = 1500;
export const PROMPT_SEARCH_PAGE_SIZE = 50;
/** How long a copy button says the prompt was copied (the spec's copied indicator). */
export const PROMPT_COPIED_MS = 2000;

/** The list of the modal: the one pager machine with the spec's page sizes and debounce. */
export const promptListInput: PagerInput = {
  pageSize: PROMPT_PAGE_SIZE,
  mode: 'append',
  search: { minLength: 1, debounceMs: PROMPT_SEARCH_DEBOUNCE_MS, pageSize: PROMPT_SEARCH_PAGE_SIZE },
  // The next page's failure says the pager's general 'Failed to load more results'.
  messages: { load: PROMPTS_FAILED },
};

/** The form of a new prompt in the library, and of an edit of `entry`. */
export const newPromptForm: PromptFormInput = { id: null, prompt: '', tagsText: '', texts: { saved: PROMPT_SAVED, failed: SAVE_PROMPT_FAILED } };
export const editPromptForm = (entry: PromptEntry): PromptFormInput => ({
  id: entry.id,
  prompt: entry.prompt,
  tagsText: entry.tags.join(', '),
  texts: { saved: PROMPT_UPDATED, failed: UPDATE_PROMPT_FAILED },
});

export interface PromptLibraryContext extends ReportsTo {
  /** The prompt being loaded for, or shown in, the edit form. */
  editing: PromptEntry | null;
  editingId: string | null;
  /** The prompt the delete confirmation (and the delete) is about. */
  deletingId: string | null;
  /** The prompt whose copy button says it was copied (or is copying). */
  copiedId: string | null;
}

export type PromptLibraryEvent =
  | { type: 'prompts.search'; text: string }
  | { type: 'prompts.loadMore' }
  /** Load the first page again ('Try again' after a failed load). */
  | { type: 'prompts.reload' }
  /** Show only the prompts with this tag (null: all). */
  | { type: 'prompts.filterTag'; tag: string | null }
  | { type: 'prompt.new' }
  | { type: 'prompt.edit'; id: string }
  | { type: 'form.cancel' }
  | { type: 'prompt.delete'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'prompt.copy'; id: string; text: string }
  | { type: 'prompt.paste'; text: string }
  /** From the children: their toasts, passed on. */
  | Notice;

/** What the library tells the screen: paste this text into the input box (and close). */
export type PromptLibraryReported = Notice | { type: 'prompt.pasted'; text: string };

type ActorOutcome =
  | DoneActorEvent<PromptEntry, 'loadPrompt'>
  | ErrorActorEvent<unknown, 'loadPrompt'>
  | DoneActorEvent<PromptEntry, 'form'>
  | DoneActorEvent<unknown, 'deletePrompt'>
  | ErrorActorEvent<unknown, 'deletePrompt'>
  | DoneActorEvent<unknown, 'copyText'>
  | ErrorActorEvent<unknown, 'copyText'>;

export const promptLibraryMachine = setup({
  types: {
    context: {} as PromptLibraryContext,
    events: {} as PromptLibraryEvent | ActorOutcome,
    // Run by itself (tests, paths) it takes no input (`void`: an optional input's `undefined` would be dropped).
    input: {} as ReportsTo | void,
    emitted: {} as PromptLibraryReported,
    tags: {} as 'busy' | 'copied',
    children: {} as { list: 'list'; form: 'form'; loadPrompt: 'loadPrompt'; deletePrompt: 'deletePrompt'; copyText: 'copyText' },
  },
  actors: {
    list: pagerMachine,
    form: promptFormMachine,
    loadPrompt: notProvided<PromptEntry, { id: string }>('loadPrompt'),
    deletePrompt: notProvided<unknown, { id: string }>('deletePrompt'),
    copyText: notProvided<void, { text: string }>('copyText'),
  },
  delays: { COPIED: PROMPT_COPIED_MS },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportPasted: report(({ event }: { event: { type: 'prompt.paste'; text: string } }) => ({ type: 'prompt.pasted', text: event.text })),
    forwardToList: sendTo('list', ({ event }) => {
      assertEvent(event, ['prompts.search', 'prompts.loadMore', 'prompts.reload', 'prompts.filterTag']);
      if (event.type === 'prompts.search') return { type: 'pager.search' as const, text: event.text };
      if (event.type === 'prompts.loadMore') return { type: 'pager.loadMore' as const };
      if (event.type === 'prompts.reload') return { type: 'pager.load' as const };
      return { type: 'pager.filter' as const, filters: { tag: event.tag ?? undefined } };
    }),
    reportFailure: report((_: unknown, params: { text: string }) => notice('error', params.text)),
  },
}).createMachine({
  id: 'promptLibrary',
  context: ({ input }) => ({ editing: null, editingId: null, deletingId: null, copiedId: null, parent: input?.parent }),
  invoke: { id: 'list', src: 'list', input: ({ self }) => ({ ...promptListInput, parent: self }) },
  initial: 'browsing',
  on: {
    'prompts.search': { actions: 'forwardToList' },
    'prompts.loadMore': { actions: 'forwardToList' },
    'prompts.reload': { actions: 'forwardToList' },
    'prompts.filterTag': { actions: 'forwardToList' },
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    browsing: {
      description: 'The Prompt Library modal lists the prompts with search, tags, Copy, Paste, Edit and Delete.',
      initial: 'idle',
      on: {
        'prompt.new': 'creating',
        'prompt.edit': { target: 'loadingPrompt', actions: assign({ editingId: ({ event }) => event.id }) },
        'prompt.delete': { target: 'confirmingDelete', actions: assign({ deletingId: ({ event }) => event.id }) },
        'prompt.paste': { actions: 'reportPasted' },
      },
      states: {
        idle: {
          description: 'The prompts are shown.',
          on: { 'prompt.copy': { target: 'copying', actions: assign({ copiedId: ({ event }) => event.id }) } },
        },
        copying: {
          description: 'A prompt is being put on the clipboard.',
          invoke: {
            id: 'copyText',
            src: 'copyText',
            input: ({ event }) => {
              assertEvent(event, 'prompt.copy');
              return { text: event.text };
            },
            onDone: 'copied',
            onError: { target: 'idle', actions: [assign({ copiedId: null }), { type: 'reportFailure', params: { text: COPY_PROMPT_FAILED } }] },
          },
        },
        copied: {
          description: 'The copy button of the prompt says it was copied, for a moment.',
          tags: ['copied'],
          after: { COPIED: { target: 'idle', actions: assign({ copiedId: null }) } },
          on: { 'prompt.copy': { target: 'copying', actions: assign({ copiedId: ({ event }) => event.id }) } },
        },
      },
      exit: assign({ copiedId: null }),
    },
    creating: {
      description: 'The New Prompt form is open over the list.',
      invoke: {
        id: 'form',
        src: 'form',
        input: ({ self }) => ({ ...newPromptForm, parent: self }),
        onDone: { target: 'browsing', actions: sendTo('list', { type: 'pager.refetch' }) },
      },
      on: { 'form.cancel': 'browsing' },
    },
    loadingPrompt: {
      description: 'Edit Prompt: the prompt is loaded afresh before its form opens.',
      tags: ['busy'],
      invoke: {
        id: 'loadPrompt',
        src: 'loadPrompt',
        input: ({ context }) => ({ id: context.editingId as string }),
        onDone: { target: 'editing', actions: assign({ editing: ({ event }) => event.output }) },
        onError: {
          target: 'browsing',
          actions: [assign({ editingId: null }), { type: 'reportFailure', params: { text: PROMPT_DETAILS_FAILED } }],
        },
      },
      on: { 'form.cancel': { target: 'browsing', actions: assign({ editingId: null }) } },
    },
    editing: {
      description: 'The Edit Prompt form is open with the prompt.',
      invoke: {
        id: 'form',
        src: 'form',
        input: ({ context, self }) => ({ ...editPromptForm(context.editing as PromptEntry), parent: self }),
        onDone: {
          target: 'browsing',
          actions: sendTo('list', ({ event }) => ({ type: 'item.upsert' as const, item: event.output, insert: false })),
        },
      },
      on: { 'form.cancel': 'browsing' },
      exit: assign({ editing: null, editingId: null }),
    },
    confirmingDelete: {
      description: 'Delete Prompt asks before the prompt is deleted.',
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'browsing', actions: assign({ deletingId: null }) },
      },
    },
    deleting: {
      description: 'The prompt is being deleted; the modal waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'deletePrompt',
        src: 'deletePrompt',
        input: ({ context }) => ({ id: context.deletingId as string }),
        onDone: {
          target: 'browsing',
          actions: [
            sendTo('list', ({ context }) => ({ type: 'item.remove' as const, id: context.deletingId as string })),
            report(() => notice('success', PROMPT_DELETED)),
            assign({ deletingId: null }),
          ],
        },
        onError: {
          target: 'browsing',
          actions: [assign({ deletingId: null }), { type: 'reportFailure', params: { text: DELETE_PROMPT_FAILED } }],
        },
      },
    },
  },
});

export type PromptLibraryMachine = typeof promptLibraryMachine;
