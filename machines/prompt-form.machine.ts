import { assertEvent, assign, setup } from 'xstate';
import type { PromptEntry } from '../contract/prompt-library';
import {
  PROMPT_MAX_LENGTH,
  PROMPT_MAX_TAGS,
  PROMPT_REQUIRED,
  PROMPT_TOO_LONG,
  TAG_MAX_LENGTH,
  TAG_REQUIRED,
  TAG_TOO_LONG,
  TOO_MANY_TAGS,
} from '../contract/prompt-library-constants';
import { normaliseTags } from '../shared/tags';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report, type ReportsTo } from './report';

/**
 * One prompt's form (spec chat-and-session.md section 2 modals 'Save to Personal Prompt Library' and 'Edit
 * Prompt', section 5 "Prompt save and edit"): the prompt text and its tags, typed comma separated.
 *
 * Used three ways, told apart by the input: saving a person's own message (the chat screen spawns it, id
 * `savePrompt`), a new prompt and an edit inside the prompt library (which invokes it, id `form`). The input's
 * `texts` are the success and failure sentences of that use.
 *
 * States: `editing` -> `form.submit` -> `saving` (tag `busy`, invokes `savePrompt`: POST, or PUT with an id) ->
 * `saved` (final; output: the server's entry) with the success toast. Invalid fields stay in `editing` with their
 * sentences (the server's own rules: required, lengths, at most PROMPT_MAX_TAGS tags); a failed save shows the
 * server's sentence, else the input's failure text, and keeps what was typed.
 */

export interface PromptFormInput extends ReportsTo {
  /** The prompt being edited, or null for a new one. */
  id: string | null;
  prompt: string;
  /** The tags as a person types them: comma separated. */
  tagsText: string;
  texts: { saved: string; failed: string };
}

/** What `savePrompt` is asked to do: create (no id) or replace (with the id). */
export interface SavePromptRequest {
  id: string | null;
  prompt: string;
  tags: string[];
}

export interface PromptFormContext extends PromptFormInput {
  promptError: string | null;
  tagsError: string | null;
  saved: PromptEntry | null;
}

export type PromptFormEvent =
  | { type: 'field.prompt'; text: string }
  | { type: 'field.tags'; text: string }
  | { type: 'form.submit' };

/** The server's rules, in its words, checked before any call. */
export function promptFormErrors(prompt: string, tagsText: string): { promptError: string | null; tagsError: string | null } {
  const text = prompt.trim();
  const tags = normaliseTags([tagsText]);
  const promptError = text === '' ? PROMPT_REQUIRED : text.length > PROMPT_MAX_LENGTH ? PROMPT_TOO_LONG : null;
  const tagsError =
    tags.length === 0
      ? TAG_REQUIRED
      : tags.length > PROMPT_MAX_TAGS
        ? TOO_MANY_TAGS
        : tags.some((t) => t.length > TAG_MAX_LENGTH)
          ? TAG_TOO_LONG
          : null;
  return { promptError, tagsError };
}

export const promptFormMachine = setup({
  types: {
    context: {} as PromptFormContext,
    events: {} as PromptFormEvent,
    input: {} as PromptFormInput,
    emitted: {} as Notice,
    output: {} as PromptEntry,
    tags: {} as 'busy',
  },
  actors: {
    savePrompt: notProvided<PromptEntry, SavePromptRequest>('savePrompt'),
  },
  guards: {
    isValid: ({ context }) => {
      const errors = promptFormErrors(context.prompt, context.tagsText);
      return errors.promptError === null && errors.tagsError === null;
    },
  },
  actions: {
    showErrors: assign(({ context }) => promptFormErrors(context.prompt, context.tagsText)),
    reportSaved: report(({ context }: { context: PromptFormContext }) => notice('success', context.texts.saved)),
    reportFailed: report(({ context, event }: { context: PromptFormContext; event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? context.texts.failed),
    ),
  },
}).createMachine({
  id: 'promptForm',
  context: ({ input }) => ({ ...input, promptError: null, tagsError: null, saved: null }),
  initial: 'editing',
  states: {
    editing: {
      description: 'The prompt form: the text and its tags, typed comma separated, with what is wrong under each field.',
      on: {
        // Typing in a field clears its sentence; the next submit checks again.
        'field.prompt': {
          actions: assign(({ event }) => {
            assertEvent(event, 'field.prompt');
            return { prompt: event.text, promptError: null };
          }),
        },
        'field.tags': {
          actions: assign(({ event }) => {
            assertEvent(event, 'field.tags');
            return { tagsText: event.text, tagsError: null };
          }),
        },
        'form.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'showErrors' }],
      },
    },
    saving: {
      description: 'The prompt is being saved; the form waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'savePrompt',
        src: 'savePrompt',
        input: ({ context }) => ({ id: context.id, prompt: context.prompt.trim(), tags: normaliseTags([context.tagsText]) }),
        onDone: { target: 'saved', actions: [assign({ saved: ({ event }) => event.output }), 'reportSaved'] },
        onError: { target: 'editing', actions: 'reportFailed' },
      },
    },
    saved: { description: 'The prompt was saved and the form closes with the success toast.', type: 'final' },
  },
  output: ({ context }) => context.saved as PromptEntry,
});

export type PromptFormMachine = typeof promptFormMachine;
