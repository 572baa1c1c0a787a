import type { SnapshotFrom } from 'xstate';
import type { PromptEntry } from '../../../contract/prompt-library';
import { PROMPT_SAVED_TO_LIBRARY } from '../../../contract/prompt-library-constants';
import { promptFormMachine, type PromptFormInput } from '../../../machines/prompt-form.machine';
import { editPromptForm, newPromptForm, SAVE_PROMPT_FAILED } from '../../../machines/prompt-library.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof promptFormMachine>;

/** The model's words; the browser types its own, with the test's unique word in them. */
export const PROMPT_TEXT = 'Draft a polite reply';
export const BLANK = '   ';
export const TAGS_TEXT = ' email, , Email,work ';
export const NO_TAGS = ' , ';

const saved: PromptEntry = { id: 'p1', prompt: PROMPT_TEXT, tags: ['email', 'work'], created_at: '', updated_at: '' };

/** The three uses of the form, told apart by the input (machines/chat-screen.machine.ts, prompt-library.machine.ts). */
export type FormUse = 'message' | 'new' | 'edit';
export const INPUTS: Record<FormUse, PromptFormInput> = {
  // Save to Personal Prompt Library: the message's text, no tags yet.
  message: { id: null, prompt: 'Summarise this report', tagsText: '', texts: { saved: PROMPT_SAVED_TO_LIBRARY, failed: SAVE_PROMPT_FAILED } },
  new: newPromptForm,
  edit: editPromptForm({ ...saved, prompt: 'Summarise', tags: ['work'] }),
};
export const useOf = (input: PromptFormInput): FormUse => (input.id !== null ? 'edit' : input.prompt === '' ? 'new' : 'message');

/**
 * The person types a prompt (or blanks it), types tags (or only commas), presses Save; the server saves it (or,
 * with a stub, the connection drops). Not generated: what the view does not offer while saving (Save is pending,
 * the fields are behind it), and a submit after `saved` (the form has closed).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'editing':
      return [
        { type: 'field.prompt', text: PROMPT_TEXT },
        { type: 'field.prompt', text: BLANK },
        { type: 'field.tags', text: TAGS_TEXT },
        { type: 'field.tags', text: NO_TAGS },
        { type: 'form.submit' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.savePrompt', output: saved, actorId: 'savePrompt' },
        { type: 'xstate.error.actor.savePrompt', error: new Error('Network Error'), actorId: 'savePrompt' },
      ];
    default:
      return [];
  }
}


const generated = maximalPaths({
  machine: promptFormMachine,
  inputs: [INPUTS.message, INPUTS.new, INPUTS.edit],
  events: eventsFor as never,
  // What the guard and the view read: whether each field has something, each field's sentence.
  key: (s) =>
    JSON.stringify([s.value, useOf(s.context), s.context.prompt.trim() !== '', s.context.tagsText.replace(/[ ,]/g, '') !== '', s.context.promptError, s.context.tagsError]),
  simpleKey: (s) => JSON.stringify([s.value, useOf(s.context)]),
  edgeKeys: true,
});

export { promptFormMachine };
/** Three forms to a person (title, what is in it, what the toast says) but one machine: the fewest paths per use. */
export const promptFormPaths = asSteps<PromptFormInput>(
  (['message', 'new', 'edit'] as const).flatMap((use) => coveringPaths(promptFormMachine, generated.filter((p) => useOf(p.input) === use))),
);
