import { expect } from './support/expect';
import { fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { PromptEntry } from '../../contract/prompt-library';
import { PROMPT_DELETED } from '../../contract/prompt-library-constants';
import { notice } from '../../machines/notice';
import {
  COPY_PROMPT_FAILED,
  DELETE_PROMPT_FAILED,
  editPromptForm,
  newPromptForm,
  PROMPT_DETAILS_FAILED,
  promptLibraryMachine,
  promptListInput,
  type PromptLibraryReported,
} from '../../machines/prompt-library.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof promptLibraryMachine>;
type Ev = EventFrom<typeof promptLibraryMachine>;

const AFTER = 'xstate.after.COPIED.promptLibrary.browsing.copied';
const entry = (id: string, prompt: string): PromptEntry => ({
  id,
  prompt,
  tags: ['email', 'work'],
  created_at: '2026-11-24T08:00:00Z',
  updated_at: '2026-11-24T08:00:00Z',
});
const p1 = entry('p1', 'Draft a polite reply');
const saved = entry('p9', 'A new prompt');

let listInputs: unknown[] = [];
let toList: EventObject[] = [];
let forms: Array<{ input: unknown; stopped: boolean }> = [];
let calls: { load: unknown[]; del: unknown[]; copy: unknown[] } = { load: [], del: [], copy: [] };
let emitted: PromptLibraryReported[] = [];
let seen = { list: 0, emitted: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  promptLibraryMachine.provide({
    actors: {
      list: fromCallback<EventObject, unknown>(({ input, receive }) => {
        listInputs.push(input);
        receive((e) => toList.push(e));
      }) as never,
      form: fromCallback<EventObject, unknown>(({ input }) => {
        const form = { input, stopped: false };
        forms.push(form);
        return () => {
          form.stopped = true;
        };
      }) as never,
      loadPrompt: pendingActor<PromptEntry, { id: string }>((i) => calls.load.push(i)),
      deletePrompt: pendingActor<unknown, { id: string }>((i) => calls.del.push(i)),
      copyText: pendingActor<void, { text: string }>((i) => calls.copy.push(i)),
    },
  });

const listEvents: Ev[] = [
  { type: 'prompts.search', text: 'reply' },
  { type: 'prompts.loadMore' },
  { type: 'prompts.reload' },
  { type: 'prompts.filterTag', tag: 'email' },
  { type: 'prompts.filterTag', tag: null },
];
const childNotice: Ev = notice('error', 'Failed to fetch prompt libraries');

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [...listEvents, childNotice];
  if (s.matches('browsing')) {
    const copy: Ev[] = [{ type: 'prompt.copy', id: 'p2', text: 'Second prompt' }];
    if (s.matches({ browsing: 'copying' })) {
      return [
        ...always,
        ...copy,
        { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' } as never,
        { type: 'xstate.error.actor.copyText', error: new Error('NotAllowedError'), actorId: 'copyText' } as never,
      ];
    }
    if (s.matches({ browsing: 'copied' })) return [...copy, { type: AFTER } as never, { type: 'prompt.paste', text: p1.prompt }];
    return [
      ...always,
      { type: 'prompt.copy', id: 'p1', text: p1.prompt },
      { type: 'prompt.paste', text: p1.prompt },
      { type: 'prompt.new' },
      { type: 'prompt.edit', id: 'p1' },
      { type: 'prompt.delete', id: 'p1' },
      { type: 'delete.confirm' },
      { type: 'form.cancel' },
    ];
  }
  if (s.matches('creating') || s.matches('editing')) {
    return [...always, { type: 'form.cancel' }, { type: 'xstate.done.actor.form', output: saved, actorId: 'form' } as never];
  }
  if (s.matches('loadingPrompt')) {
    return [
      { type: 'form.cancel' },
      { type: 'xstate.done.actor.loadPrompt', output: p1, actorId: 'loadPrompt' } as never,
      { type: 'xstate.error.actor.loadPrompt', error: new Error('Prompt not found'), actorId: 'loadPrompt' } as never,
    ];
  }
  if (s.matches('confirmingDelete')) return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }, { type: 'prompt.edit', id: 'p1' }];
  return [
    { type: 'xstate.done.actor.deletePrompt', output: undefined, actorId: 'deletePrompt' } as never,
    { type: 'xstate.error.actor.deletePrompt', error: new Error('HTTP 500'), actorId: 'deletePrompt' } as never,
    { type: 'delete.cancel' },
  ];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as Ev | null;
  const fresh = { list: toList.slice(seen.list), emitted: emitted.slice(seen.emitted) };
  seen = { list: toList.length, emitted: emitted.length };

  // The list runs for the modal's whole life with the spec's sizes; the form exactly in creating and editing.
  expect(listInputs).toEqual([{ ...promptListInput, parent: expect.anything() }]);
  const running = forms.filter((f) => !f.stopped);
  expect(running).toHaveLength(s.matches('creating') || s.matches('editing') ? 1 : 0);
  if (s.matches('creating')) expect(running[0]!.input).toEqual({ ...newPromptForm, parent: expect.anything() });
  if (s.matches('editing')) expect(running[0]!.input).toEqual({ ...editPromptForm(p1), parent: expect.anything() });
  expect(s.hasTag('busy')).toBe(s.matches('loadingPrompt') || s.matches('deleting'));
  expect(s.hasTag('copied')).toBe(s.matches({ browsing: 'copied' }));
  expect(s.context.deletingId !== null).toBe(s.matches('confirmingDelete') || s.matches('deleting'));
  expect(s.context.editingId !== null).toBe(s.matches('loadingPrompt') || s.matches('editing'));
  expect(s.context.copiedId !== null).toBe(s.matches({ browsing: 'copying' }) || s.matches({ browsing: 'copied' }));
  if (s.matches('loadingPrompt') && !p?.matches('loadingPrompt')) expect(calls.load.at(-1)).toEqual({ id: 'p1' });
  if (s.matches('deleting') && !p?.matches('deleting')) expect(calls.del.at(-1)).toEqual({ id: 'p1' });

  // What the list is told, and exactly the outward events of the step.
  const expectedList: Array<EventObject & Record<string, unknown>> = [];
  const expectedOut: PromptLibraryReported[] = [];
  switch (event?.type) {
    case 'prompts.search':
      expectedList.push({ type: 'pager.search', text: event.text });
      break;
    case 'prompts.loadMore':
      expectedList.push({ type: 'pager.loadMore' });
      break;
    case 'prompts.reload':
      expectedList.push({ type: 'pager.load' });
      break;
    case 'prompts.filterTag':
      expectedList.push({ type: 'pager.filter', filters: { tag: event.tag ?? undefined } });
      break;
    case 'notice.show':
      expectedOut.push(event);
      break;
    case 'prompt.paste':
      // Only the text: whether it was pasted is the input box's to say (chat-screen's composer.filled).
      expectedOut.push({ type: 'prompt.pasted', text: event.text });
      break;
    case 'prompt.copy':
      // A copy while the clipboard answers is ignored; otherwise this text is written.
      if (!p!.matches({ browsing: 'copying' })) expect(calls.copy.at(-1)).toEqual({ text: event.text });
      break;
    case 'xstate.done.actor.form':
      // The list is read again for a new prompt (a search or a tag may leave it out); an edited one changes in place.
      expectedList.push(p!.matches('creating') ? { type: 'pager.refetch' } : { type: 'item.upsert', item: saved, insert: false });
      break;
    case 'xstate.error.actor.loadPrompt':
      expectedOut.push(notice('error', PROMPT_DETAILS_FAILED));
      break;
    case 'xstate.done.actor.deletePrompt':
      expectedList.push({ type: 'item.remove', id: 'p1' });
      expectedOut.push(notice('success', PROMPT_DELETED));
      break;
    case 'xstate.error.actor.deletePrompt':
      expectedOut.push(notice('error', DELETE_PROMPT_FAILED));
      break;
    case 'xstate.error.actor.copyText':
      expectedOut.push(notice('error', COPY_PROMPT_FAILED));
      break;
  }
  expect(fresh.list).toEqual(expectedList);
  expect(fresh.emitted).toEqual(expectedOut);
  prev = s;
}

runModelTest({
  name: 'prompt-library',
  machine: promptLibraryMachine,
  testMachine,
  onActor: (actor) => {
    listInputs = [];
    toList = [];
    forms = [];
    calls = { load: [], del: [], copy: [] };
    emitted = [];
    seen = { list: 0, emitted: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as PromptLibraryReported));
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    browsing: checkStep,
    creating: checkStep,
    loadingPrompt: checkStep,
    editing: checkStep,
    confirmingDelete: checkStep,
    deleting: checkStep,
  },
});
