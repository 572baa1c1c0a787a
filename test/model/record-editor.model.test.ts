import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import type { PagerInput } from '../../machines/pager.machine';
import {
  draftErrors,
  recordEditorMachine,
  type DeletePlan,
  type Draft,
  type EditorRules,
  type RecordEditorInput,
  type SavePlan,
} from '../../machines/record-editor.machine';
import { pendingActor } from './support/fakes';
import { recordEditorFakes, removeOutcomes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof recordEditorMachine>;
type Ev = EventFrom<typeof recordEditorMachine>;

const NAME_REQUIRED = 'Name is required';
const listInput: PagerInput = { pageSize: 10, mode: 'replace', messages: { load: 'Failed to fetch things' } };
const rules: EditorRules = {
  errors: (draft) => (String(draft.name ?? '').trim() === '' ? { name: NAME_REQUIRED } : null),
  request: (draft) => ({ ...draft, name: String(draft.name).trim() }),
};
/** The two ways a failed delete ends: the question closes (departments), or stays open (shared links). */
const closing: RecordEditorInput = { list: listInput, rules, refetchLaterMs: 1000 };
const askingAgain: RecordEditorInput = { list: listInput, rules, delete: { askAgain: true, goneIsDone: true, serverSentence: false } };

const plans: Record<SavePlan['then'], SavePlan> = {
  refetch: { saved: 'Renamed', failed: 'Failed to rename', then: 'refetch' },
  refetchLater: { saved: 'Created', failed: 'Failed to create', then: 'refetchLater' },
  upsert: { saved: 'Updated', failed: 'Failed to update', then: 'upsert' },
};
const deletePlan: DeletePlan = { deleted: 'Deleted', failed: 'Failed to delete' };

const taken = loadFailure('HTTP 409', 'That name is taken');
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });
const gone = Object.assign(loadFailure('HTTP 404', 'Not found'), { status: 404 });
const fault = Object.assign(loadFailure('HTTP 500', 'Internal Server Error'), { status: 500 });
const serverCopy = { id: 'r1', name: 'Legal' };

const fakes = recordEditorFakes();
const { rec } = fakes;
let counted = { saves: 0, removals: 0 };
let prev: Snap | null = null;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [
    { type: 'list.search', text: 'fin' },
    { type: 'list.goTo', page: 2 },
    { type: 'list.filter', filters: { status: 'active' } },
    { type: 'list.retry' },
    notice('error', 'Failed to fetch things'),
  ];
  if (s.matches('browsing')) {
    return [
      ...always,
      ...Object.values(plans).map((plan): Ev => ({ type: 'record.edit', draft: { id: 'r1', name: 'Finance' }, plan })),
      { type: 'record.delete', target: { id: 'r1' }, plan: deletePlan },
      { type: 'form.submit' },
      { type: 'delete.confirm' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      { type: 'record.change', patch: { name: '  Legal  ' } },
      { type: 'record.change', patch: { name: '   ' } },
      { type: 'form.submit' },
      { type: 'form.cancel' },
    ];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: taken, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
      { type: 'form.cancel' },
    ] as never[];
  }
  if (s.matches('confirming')) {
    return [...always, { type: 'delete.confirm' }, { type: 'delete.cancel' }, { type: 'record.delete', target: { id: 'r2' }, plan: deletePlan }];
  }
  return [...removeOutcomes(gone, fault, dropped), { type: 'delete.cancel' }];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number; serverDetail?: string | null } } & Record<string, unknown>) | null;
  const askAgain = s.context.deleteRules.askAgain === true;

  expect(rec.listInputs).toEqual([{ ...listInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('deleting'));
  expect(s.context.draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(s.context.plan !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(s.context.target !== null).toBe(s.matches('confirming') || s.matches('deleting'));
  if (!s.matches('editing')) expect(s.context.errors).toEqual({});
  // Nothing is sent before the rules pass, and what is sent is the draft as the rules make it.
  if (s.matches('saving') && !p?.matches('saving')) expect(rec.saves.at(-1)).toEqual({ ...s.context.draft, name: String(s.context.draft!.name).trim() });
  expect(rec.saves.length - counted.saves).toBe(s.matches('saving') && !p?.matches('saving') ? 1 : 0);
  expect(rec.removals.length - counted.removals).toBe(s.matches('deleting') && !p?.matches('deleting') ? 1 : 0);
  counted = { saves: rec.saves.length, removals: rec.removals.length };
  // Nothing is deleted before the confirmation; a second delete press does not change what the question is about.
  if (s.matches('deleting') && !p?.matches('deleting')) expect(rec.removals.at(-1)).toEqual(s.context.target);
  if (s.matches('confirming') && p?.matches('confirming')) expect(s.context.target).toEqual(p.context.target);

  const list: EventObject[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.search':
      list.push({ type: 'pager.search', text: 'fin' } as EventObject);
      break;
    case 'list.goTo':
      list.push({ type: 'pager.goTo', page: 2 } as EventObject);
      break;
    case 'list.filter':
      list.push({ type: 'pager.filter', filters: { status: 'active' } } as EventObject);
      break;
    case 'list.retry':
      list.push({ type: 'pager.load' });
      break;
    case 'notice.show':
      out.push(notice('error', 'Failed to fetch things'));
      break;
    case 'record.change':
      // Typing clears the field's sentence.
      expect(s.context.errors).toEqual({});
      break;
    case 'form.submit':
      if (p!.matches('editing')) {
        const errors = draftErrors(rules, p!.context.draft);
        expect(s.matches('saving')).toBe(Object.keys(errors).length === 0);
        if (s.matches('editing')) expect(s.context.errors).toEqual(errors);
      }
      break;
    case 'xstate.done.actor.save': {
      const then = p!.context.plan!.then;
      out.push(notice('success', p!.context.plan!.saved));
      // Read again later (a delayed event, not yet sent), at once, or the server's copy put in place.
      if (then === 'refetch') list.push({ type: 'pager.refetch' });
      if (then === 'upsert') list.push({ type: 'item.upsert', item: serverCopy, insert: false } as EventObject);
      break;
    }
    case 'xstate.error.actor.save':
      out.push(notice('error', event.error?.serverDetail ?? p!.context.plan!.failed));
      // The dialog stays, with what was typed.
      expect(s.context.draft).toEqual(p!.context.draft);
      break;
    case 'xstate.done.actor.remove':
      out.push(notice('success', deletePlan.deleted));
      list.push({ type: 'pager.refetch' });
      break;
    case 'xstate.error.actor.remove':
      if (askAgain && event.error?.status === 404) {
        out.push(notice('success', deletePlan.deleted));
        list.push({ type: 'pager.refetch' });
        expect(s.matches('browsing')).toBe(true);
      } else {
        out.push(notice('error', (askAgain ? null : event.error?.serverDetail) ?? deletePlan.failed));
        expect(s.matches(askAgain ? 'confirming' : 'browsing')).toBe(true);
        if (askAgain) expect(s.context.target).toEqual(p!.context.target);
      }
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

runModelTest({
  name: 'record-editor',
  machine: recordEditorMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    counted = { saves: 0, removals: 0 };
    prev = null;
  },
  inputs: [closing, askingAgain],
  events: eventsFor,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.plan?.then ?? null,
      s.context.target?.id ?? null,
      Object.keys(draftErrors(rules, s.context.draft)).length,
      Object.keys(s.context.errors).length,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.plan?.then ?? null]),
  edgeKeys: true,
  checks: { browsing: checkStep, editing: checkStep, saving: checkStep, confirming: checkStep, deleting: checkStep },
});

describe('record editor (examples)', () => {
  // The delayed read of `refetchLater` is timed in departments-admin.model.test.ts, with the page's 1 s.
  it('reports its toasts to the machine that invoked it', () => {
    const heard: EventObject[] = [];
    const parent = createActor(
      createMachine({
        invoke: {
          id: 'editor',
          src: recordEditorMachine.provide({
            actors: { list: fromCallback(() => {}) as never, remove: pendingActor<unknown, Draft>() },
          }),
          input: ({ self }) => ({ ...closing, parent: self }),
        },
        on: { '*': { actions: ({ event }) => heard.push(event) } },
      }),
    ).start();
    const editor = parent.getSnapshot().children.editor!;
    editor.send({ type: 'record.delete', target: { id: 'r1' }, plan: deletePlan });
    editor.send({ type: 'delete.confirm' });
    editor.send({ type: 'xstate.done.actor.remove', output: {}, actorId: 'remove' } as never);
    expect(heard).toEqual([notice('success', deletePlan.deleted)]);
  });
});
