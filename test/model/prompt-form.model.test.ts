import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { PromptEntry } from '../../contract/prompt-library';
import {
  PROMPT_MAX_TAGS,
  PROMPT_REQUIRED,
  PROMPT_SAVED_TO_LIBRARY,
  PROMPT_UPDATED,
  TAG_REQUIRED,
  TAG_TOO_LONG,
  TOO_MANY_TAGS,
} from '../../contract/prompt-library-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { promptFormErrors, promptFormMachine, type PromptFormInput, type SavePromptRequest } from '../../machines/prompt-form.machine';
import { SAVE_PROMPT_FAILED, UPDATE_PROMPT_FAILED } from '../../machines/prompt-library.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof promptFormMachine>;
type Ev = EventFrom<typeof promptFormMachine>;

const refused = loadFailure('HTTP 400', 'A tag cannot be more than 50 characters');
const dropped = loadFailure('Network Error', null);
const entry: PromptEntry = { id: 'p1', prompt: 'Summarise', tags: ['work'], created_at: '2026-11-24T08:00:00Z', updated_at: '2026-11-24T08:00:00Z' };

const inputs: PromptFormInput[] = [
  // Saving a message: its text, no tags yet.
  { id: null, prompt: 'Summarise this report for a manager', tagsText: '', texts: { saved: PROMPT_SAVED_TO_LIBRARY, failed: SAVE_PROMPT_FAILED } },
  // Editing a saved prompt.
  { id: 'p1', prompt: 'Summarise', tagsText: 'work', texts: { saved: PROMPT_UPDATED, failed: UPDATE_PROMPT_FAILED } },
];

let saves: SavePromptRequest[] = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const eventsFor = (s: Snap): Ev[] => {
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.savePrompt', output: entry, actorId: 'savePrompt' },
      { type: 'xstate.error.actor.savePrompt', error: refused, actorId: 'savePrompt' },
      { type: 'xstate.error.actor.savePrompt', error: dropped, actorId: 'savePrompt' },
      { type: 'form.submit' },
    ] as never[];
  }
  if (s.matches('saved')) return [{ type: 'form.submit' }];
  return [
    { type: 'field.prompt', text: '   ' },
    { type: 'field.prompt', text: '  Draft a polite reply  ' },
    { type: 'field.tags', text: ' email, , Work,work ' },
    { type: 'field.tags', text: ' , ' },
    { type: 'form.submit' },
  ];
};

const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const event = e as (Ev & { error?: unknown }) | { type: string; error?: unknown } | null;
  expect(s.hasTag('busy')).toBe(s.matches('saving'));
  expect(Boolean(s.children.savePrompt)).toBe(s.matches('saving'));
  // Exactly the toasts of the step: the use's own sentences, the server's when it gave one.
  const expected: Notice[] = [];
  if (event?.type === 'xstate.done.actor.savePrompt') expected.push(notice('success', s.context.texts.saved));
  if (event?.type === 'xstate.error.actor.savePrompt') {
    expected.push(notice('error', event.error === refused ? 'A tag cannot be more than 50 characters' : s.context.texts.failed));
  }
  expect(fresh).toEqual(expected);
  fn(s, event, p);
  prev = s;
};

runModelTest({
  name: 'prompt-form',
  machine: promptFormMachine,
  testMachine: () => promptFormMachine.provide({ actors: { savePrompt: pendingActor<PromptEntry, SavePromptRequest>((i) => saves.push(i)) } }),
  onActor: (actor) => {
    saves = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs,
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.id, s.context.prompt.trim() !== '', s.context.tagsText.replace(/[ ,]/g, '') !== '', s.context.promptError, s.context.tagsError]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.id]),
  edgeKeys: true,
  checks: {
    editing: check((s, e, p) => {
      if (e?.type === 'form.submit') {
        // Refused before any call, each field with its own sentence.
        const errors = promptFormErrors(p!.context.prompt, p!.context.tagsText);
        expect({ promptError: s.context.promptError, tagsError: s.context.tagsError }).toEqual(errors);
        expect(errors.promptError !== null || errors.tagsError !== null).toBe(true);
      }
      if (e?.type === 'field.prompt') expect(s.context.promptError).toBeNull();
      if (e?.type === 'field.tags') expect(s.context.tagsError).toBeNull();
      // A failed save keeps what was typed.
      if (e?.type === 'xstate.error.actor.savePrompt') {
        expect(s.context.prompt).toBe(p!.context.prompt);
        expect(s.context.tagsText).toBe(p!.context.tagsText);
      }
    }),
    saving: check((s, e) => {
      if (e?.type === 'form.submit') {
        // What is sent: the text trimmed, the tags split at commas, trimmed, empties and repeats dropped.
        expect(saves.at(-1)).toEqual({
          id: s.context.id,
          prompt: s.context.prompt.trim(),
          tags: s.context.tagsText.includes('email') ? ['email', 'Work'] : ['work'],
        });
      }
    }),
    saved: check((s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual(entry);
    }),
  },
});

describe('prompt form (examples)', () => {
  it('words each rule as the server does', () => {
    expect(promptFormErrors(' ', 'a')).toEqual({ promptError: PROMPT_REQUIRED, tagsError: null });
    expect(promptFormErrors('x', ' , ,')).toEqual({ promptError: null, tagsError: TAG_REQUIRED });
    expect(promptFormErrors('x', 'y'.repeat(51))).toEqual({ promptError: null, tagsError: TAG_TOO_LONG });
    const many = Array.from({ length: PROMPT_MAX_TAGS + 1 }, (_, i) => `t${i}`).join(',');
    expect(promptFormErrors('x', many)).toEqual({ promptError: null, tagsError: TOO_MANY_TAGS });
    // Repeats in another case count once.
    expect(promptFormErrors('x', `${'a,A,'.repeat(PROMPT_MAX_TAGS)}b`).tagsError).toBeNull();
  });
});
