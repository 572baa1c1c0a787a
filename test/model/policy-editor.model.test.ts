import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { POLICY_LOAD_FAILED, POLICY_MAX_WORDS, POLICY_UPDATE_FAILED, POLICY_UPDATED } from '../../contract/global-policy-constants';
import { countWords } from '../../shared/word-count';
import { wordCountLevel } from '../../machines/policy-editor.machine';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { policyEditorMachine, policyFits, policyPayload } from '../../machines/policy-editor.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof policyEditorMachine>;
type Ev = EventFrom<typeof policyEditorMachine>;

const STORED = 'Never share customer data outside the company.';
const EDITED = '  Answer in British English.\n\nNever share customer data outside the company.  ';
const OVER = Array.from({ length: POLICY_MAX_WORDS + 1 }, (_, i) => `w${i}`).join(' ');
/** Few words, too many characters. */
const LONG_WORDS = Array.from({ length: 1000 }, (_, i) => `word-of-sixteen${i % 10}`).join(' ');
const refused = loadFailure('HTTP 400', 'The policy cannot be more than 1,500 words');
const dropped = loadFailure('Network Error', null);

let loads = 0;
let saves: Array<{ policy_prompt: string | null }> = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const changes: Ev[] = [
  { type: 'policy.change', text: EDITED },
  { type: 'policy.change', text: STORED },
  { type: 'policy.change', text: '' },
  { type: 'policy.change', text: OVER },
  { type: 'policy.change', text: LONG_WORDS },
];

function eventsFor(s: Snap): Ev[] {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.loadPolicy', output: STORED, actorId: 'loadPolicy' },
      { type: 'xstate.done.actor.loadPolicy', output: null, actorId: 'loadPolicy' },
      { type: 'xstate.error.actor.loadPolicy', error: new Error('HTTP 500'), actorId: 'loadPolicy' },
    ] as never[];
  }
  if (s.matches('loadFailed')) return [{ type: 'policy.retry' }, { type: 'policy.save' }];
  if (s.matches('saving')) {
    return [
      // The server stores the text trimmed (or no policy at all).
      { type: 'xstate.done.actor.savePolicy', output: policyPayload(s.context.text), actorId: 'savePolicy' },
      { type: 'xstate.error.actor.savePolicy', error: refused, actorId: 'savePolicy' },
      { type: 'xstate.error.actor.savePolicy', error: dropped, actorId: 'savePolicy' },
      { type: 'policy.change', text: 'typed while saving' },
    ] as never[];
  }
  if (s.matches('leaving')) return [{ type: 'policy.stay' }, { type: 'policy.discard' }, { type: 'policy.change', text: 'typed behind the dialog' }, { type: 'policy.save' }];
  if (s.matches('left')) return [];
  return [...changes, { type: 'policy.reset' }, { type: 'policy.save' }, { type: 'policy.leave' }, { type: 'policy.stay' }, { type: 'policy.discard' }];
}

const check = (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const event = e as { type: string; error?: unknown; output?: string | null } | null;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;

  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('busy')).toBe(s.matches('saving'));
  expect(Boolean(s.children.loadPolicy)).toBe(s.matches('loading'));
  expect(Boolean(s.children.savePolicy)).toBe(s.matches('saving'));
  // Unsaved changes exactly when the text differs from the saved one (a failed save keeps them).
  if (s.matches('clean') || s.matches('saved') || s.matches('left')) expect(s.context.text).toBe(s.context.saved);
  if (s.matches('dirty') || s.matches('error') || s.matches('leaving')) expect(s.context.text).not.toBe(s.context.saved);
  expect(s.hasTag('unsaved')).toBe(s.context.text !== s.context.saved && !s.matches('saving'));
  // Leaving asks first exactly when there are unsaved changes (and not while saving or already asking).
  expect(s.can({ type: 'policy.leave' })).toBe(s.matches('dirty') || s.matches('error'));
  expect(s.hasTag('confirmingLeave')).toBe(s.matches('leaving'));
  if (event?.type === 'policy.stay' && p?.matches('leaving')) expect([s.value, s.context.text]).toEqual(['dirty', p.context.text]);
  if (event?.type === 'policy.discard' && p?.matches('leaving')) expect(s.status).toBe('done');
  // Outside the dialog, staying and discarding are not offered.
  if ((event?.type === 'policy.stay' || event?.type === 'policy.discard') && !p?.matches('leaving')) expect(s.value).toEqual(p!.value);
  // Save only with changes, within the limit, and not while saving.
  const canSave = (s.matches('dirty') || s.matches('error')) && policyFits(s.context.text);
  expect(s.can({ type: 'policy.save' })).toBe(canSave);
  if (s.matches('loading')) expect(loads).toBeGreaterThan(0);

  const expected: Notice[] = [];
  switch (event?.type) {
    case 'xstate.error.actor.loadPolicy':
      expected.push(notice('error', POLICY_LOAD_FAILED));
      break;
    case 'xstate.done.actor.loadPolicy':
      expect(s.context.saved).toBe(event.output ?? '');
      break;
    case 'policy.save':
      if (s.matches('saving')) expect(saves.at(-1)).toEqual({ policy_prompt: policyPayload(p!.context.text) });
      break;
    case 'xstate.done.actor.savePolicy':
      expected.push(notice('success', POLICY_UPDATED));
      // What the server stored is the saved text and the editor's.
      expect(s.context.saved).toBe(event.output ?? '');
      expect(s.context.text).toBe(s.context.saved);
      break;
    case 'xstate.error.actor.savePolicy':
      expected.push(notice('error', event.error === refused ? 'The policy cannot be more than 1,500 words' : POLICY_UPDATE_FAILED));
      expect(s.context.text).toBe(p!.context.text);
      break;
    case 'policy.reset':
      expect(s.context.text).toBe(p!.context.saved);
      break;
  }
  expect(fresh).toEqual(expected);
  prev = s;
};

runModelTest({
  name: 'policy-editor',
  machine: policyEditorMachine,
  testMachine: () =>
    policyEditorMachine.provide({
      actors: {
        loadPolicy: pendingActor<string | null, void>(() => {
          loads += 1;
        }),
        savePolicy: pendingActor<string | null, { policy_prompt: string | null }>((i) => saves.push(i)),
      },
    }),
  onActor: (actor) => {
    loads = 0;
    saves = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.saved === '', s.context.text === s.context.saved, policyFits(s.context.text)]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: { loading: check, loadFailed: check, clean: check, dirty: check, saving: check, saved: check, error: check, leaving: check, left: check },
});

describe('policy words (examples)', () => {
  it('counts words split on whitespace and says normal, near (above 90%) or over', () => {
    expect(countWords('  ')).toBe(0);
    expect(countWords(' one\ttwo\n\nthree ')).toBe(3);
    expect(wordCountLevel(1350)).toBe('normal');
    expect(wordCountLevel(1351)).toBe('near');
    expect(wordCountLevel(1500)).toBe('near');
    expect(wordCountLevel(1501)).toBe('over');
    expect(policyPayload('  ')).toBeNull();
    expect(policyPayload(' Be kind. ')).toBe('Be kind.');
    expect(policyFits(LONG_WORDS)).toBe(false);
    expect(countWords(LONG_WORDS)).toBeLessThan(POLICY_MAX_WORDS);
  });
});
