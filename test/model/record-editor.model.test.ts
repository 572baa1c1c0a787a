import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, createMachine, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import type { PagerInput } from '../../machines/pager.machine';
import {
  deleteRecord,
  draftErrors,
  FORM_ERROR,
  recordEditorMachine,
  type ActPlan,
  type Draft,
  type EditorRules,
  type RecordEditorInput,
  type SavePlan,
} from '../../machines/record-editor.machine';
import { pendingActor } from './support/fakes';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof recordEditorMachine>;
type Ev = EventFrom<typeof recordEditorMachine>;

const NAME_REQUIRED = 'Name is required';
const listInput: PagerInput = { pageSize: 10, mode: 'replace', messages: { load: 'Failed to fetch things' } };
/** A draft has a name, a group and a part of that group; acts on the row 'locked' are refused. */
const baseRules: EditorRules = {
  errors: (draft) => (String(draft.name ?? '').trim() === '' ? { name: NAME_REQUIRED } : null),
  request: (draft) => ({ ...draft, name: String(draft.name).trim() }),
};
const screenRules: EditorRules = {
  ...baseRules,
  ready: (draft) => draft.part != null,
  // A new group clears the part (it belonged to the old one).
  change: (draft, patch) => ({ ...draft, ...patch, ...('group' in patch && patch.group !== draft.group ? { part: null } : {}) }),
  mayAct: (target) => target.id !== 'locked',
};
/**
 * The two ways a failed act ends: the question closes (departments; with the screen's own rules for a change,
 * submit and acts), or a confirmed one stays open (shared links; the machine's defaults for those rules).
 */
const closing: RecordEditorInput = { list: listInput, rules: screenRules, refetchLaterMs: 1000 };
const askingAgain: RecordEditorInput = { list: listInput, rules: baseRules, act: { askAgain: true, goneIsDone: true, serverSentence: false } };

const plans: Record<SavePlan['then'], SavePlan> = {
  refetch: { saved: 'Renamed', failed: 'Failed to rename', then: 'refetch' },
  refetchLater: { saved: 'Created', failed: 'Failed to create', then: 'refetchLater' },
  upsert: { saved: 'Updated', failed: 'Failed to update', then: 'upsert' },
};
const actPlans: Record<ActPlan['then'], ActPlan> = {
  refetch: { done: 'Deleted', failed: 'Failed to delete', then: 'refetch' },
  upsert: { done: 'Switched', failed: 'Failed to switch', then: 'upsert' },
  keep: { done: 'Mail sent', failed: 'Failed to send mail', then: 'keep' },
};
const acts: Ev[] = [
  deleteRecord({ id: 'r1' }, { deleted: 'Deleted', failed: 'Failed to delete' }),
  { type: 'record.act', target: { id: 'r1' }, plan: actPlans.upsert, confirm: true },
  { type: 'record.act', target: { id: 'r1' }, plan: actPlans.upsert, confirm: false },
  { type: 'record.act', target: { id: 'r1' }, plan: actPlans.keep, confirm: false },
  { type: 'record.act', target: { id: 'locked' }, plan: actPlans.upsert, confirm: false },
];

const taken = loadFailure('HTTP 409', 'That name is taken');
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });
const gone = Object.assign(loadFailure('HTTP 404', 'Not found'), { status: 404 });
const fault = Object.assign(loadFailure('HTTP 500', 'Internal Server Error'), { status: 500 });
const serverCopy = { id: 'r1', name: 'Legal' };

const fakes = recordEditorFakes();
const { rec } = fakes;
let counted = { saves: 0, acts: 0 };
let prev: Snap | null = null;

const rulesOf = (s: Snap) => s.context.rules;
const ready = (s: Snap) => s.context.draft !== null && (rulesOf(s).ready?.(s.context.draft) ?? true);

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
      ...Object.values(plans).map((plan): Ev => ({ type: 'record.edit', draft: { id: 'r1', name: 'Finance', group: 'g1', part: 'p1' }, plan })),
      { type: 'record.edit', draft: { id: 'r2', name: 'Legal', group: null, part: null }, plan: plans.upsert },
      ...acts,
      { type: 'form.submit' },
      { type: 'act.confirm' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      { type: 'record.change', patch: { name: '  Legal  ' } },
      { type: 'record.change', patch: { name: '   ' } },
      { type: 'record.change', patch: { group: 'g2' } },
      { type: 'record.change', patch: { part: 'p2' } },
      { type: 'form.submit' },
      { type: 'form.cancel' },
      acts[0]!,
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
    return [...always, { type: 'act.confirm' }, { type: 'act.cancel' }, { type: 'record.act', target: { id: 'r2' }, plan: actPlans.refetch, confirm: true }];
  }
  return [...actOutcomes(serverCopy, gone, fault, dropped), { type: 'act.cancel' }];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number; serverDetail?: string | null } } & Record<string, unknown>) | null;
  const askAgain = s.context.actRules.askAgain === true;

  expect(rec.listInputs).toEqual([{ ...listInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  expect(s.context.draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(s.context.plan !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(s.context.target !== null).toBe(s.matches('confirming') || s.matches('acting'));
  expect(s.context.actPlan !== null).toBe(s.matches('confirming') || s.matches('acting'));
  if (!s.matches('editing')) expect(s.context.errors).toEqual({});
  // The view's submit button asks the machine: only a ready draft may be submitted.
  if (s.matches('editing')) expect(s.can({ type: 'form.submit' })).toBe(ready(s));
  // The view's act buttons ask the machine: never on a refused target, and only from the list.
  for (const act of acts) {
    const target = (act as { target: Draft }).target;
    expect(s.can(act)).toBe(s.matches('browsing') && (rulesOf(s).mayAct?.(target) ?? true));
  }
  // Nothing is sent before the rules pass, and what is sent is the draft as the rules make it.
  if (s.matches('saving') && !p?.matches('saving')) expect(rec.saves.at(-1)).toEqual({ ...s.context.draft, name: String(s.context.draft!.name).trim() });
  expect(rec.saves.length - counted.saves).toBe(s.matches('saving') && !p?.matches('saving') ? 1 : 0);
  expect(rec.acts.length - counted.acts).toBe(s.matches('acting') && !p?.matches('acting') ? 1 : 0);
  counted = { saves: rec.saves.length, acts: rec.acts.length };
  // Nothing is done before the confirmation; a second press does not change what the question is about.
  if (s.matches('acting') && !p?.matches('acting')) expect(rec.acts.at(-1)).toEqual(s.context.target);
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
    case 'record.change': {
      // The screen's rule makes the change (else it is merged in); typing clears that field's sentence only.
      const patch = event.patch as Draft;
      const draft = p!.context.draft!;
      expect(s.context.draft).toEqual(rulesOf(s).change ? rulesOf(s).change!(draft, patch) : { ...draft, ...patch });
      expect(s.context.errors).toEqual(Object.fromEntries(Object.entries(p!.context.errors).filter(([field]) => !(field in patch))));
      break;
    }
    case 'record.act':
      if (p!.matches('browsing')) {
        const allowed = rulesOf(s).mayAct?.(event.target as Draft) ?? true;
        expect(s.value).toBe(!allowed ? 'browsing' : event.confirm ? 'confirming' : 'acting');
        if (allowed) expect(s.context.target).toEqual(event.target);
      }
      break;
    case 'form.submit':
      if (p!.matches('editing')) {
        const errors = draftErrors(rulesOf(p!), p!.context.draft);
        expect(s.matches('saving')).toBe(ready(p!) && Object.keys(errors).length === 0);
        if (s.matches('editing')) expect(s.context.errors).toEqual(ready(p!) ? errors : p!.context.errors);
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
      // The dialog stays, with what was typed, and says the refusal in itself too.
      expect(s.context.draft).toEqual(p!.context.draft);
      expect(s.context.errors[FORM_ERROR]).toBe(event.error?.serverDetail ?? p!.context.plan!.failed);
      break;
    case 'xstate.done.actor.act': {
      const plan = p!.context.actPlan!;
      if (plan.then === 'upsert') list.push({ type: 'item.upsert', item: serverCopy, insert: false } as EventObject);
      out.push(notice('success', plan.done));
      if (plan.then === 'refetch') list.push({ type: 'pager.refetch' });
      break;
    }
    case 'xstate.error.actor.act': {
      const plan = p!.context.actPlan!;
      if (askAgain && event.error?.status === 404) {
        out.push(notice('success', plan.done));
        list.push({ type: 'pager.refetch' });
        expect(s.matches('browsing')).toBe(true);
      } else {
        out.push(notice('error', (askAgain ? null : event.error?.serverDetail) ?? plan.failed));
        // Only a confirmed act is asked again.
        const again = askAgain && p!.context.asked;
        expect(s.matches(again ? 'confirming' : 'browsing')).toBe(true);
        if (again) expect(s.context.target).toEqual(p!.context.target);
      }
      break;
    }
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
    counted = { saves: 0, acts: 0 };
    prev = null;
  },
  inputs: [closing, askingAgain],
  events: eventsFor,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.plan?.then ?? null,
      s.context.target?.id ?? null,
      s.context.actPlan?.then ?? null,
      s.context.asked,
      s.context.draft && [s.context.draft.group, s.context.draft.part != null],
      Object.keys(draftErrors(s.context.rules, s.context.draft)).length,
      Object.keys(s.context.errors).length,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.plan?.then ?? null, s.context.actPlan?.then ?? null, s.context.draft?.part != null]),
  edgeKeys: true,
  checks: { browsing: checkStep, editing: checkStep, saving: checkStep, confirming: checkStep, acting: checkStep },
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
            actors: { list: fromCallback(() => {}) as never, act: pendingActor<unknown, Draft>() },
          }),
          input: ({ self }) => ({ ...closing, parent: self }),
        },
        on: { '*': { actions: ({ event }) => heard.push(event) } },
      }),
    ).start();
    const editor = parent.getSnapshot().children.editor!;
    editor.send(acts[0]!);
    editor.send({ type: 'act.confirm' });
    editor.send({ type: 'xstate.done.actor.act', output: {}, actorId: 'act' } as never);
    expect(heard).toEqual([notice('success', 'Deleted')]);
  });
});
