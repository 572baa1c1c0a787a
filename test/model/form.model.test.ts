import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { formMachine, type FieldErrors, type FormInput, type FormReported } from '../../machines/form.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof formMachine>;
type Ev = EventFrom<typeof formMachine>;

const FAILED = 'Failed to send reset email. Please try again.';
const EMAIL_REQUIRED = 'Email is required';
const PASSWORD_REQUIRED = 'Password is required';

/** The login form's check: both fields required (the spec's sentences). */
const validate = (v: Record<string, unknown>): FieldErrors => ({
  ...(String(v.email ?? '').trim() ? {} : { email: EMAIL_REQUIRED }),
  ...(v.password ? {} : { password: PASSWORD_REQUIRED }),
});

const inputs: FormInput[] = [
  // A form with a check, starting empty (login).
  { values: { email: '', password: '' }, validate },
  // A form without one (the profile: its button is the only way to send).
  { values: { department_id: 'd1', unit_id: null } },
];

let submitted: unknown[] = [];
/** Calls made before the step being checked. */
let submittedBefore = 0;
let reported: FormReported[] = [];
let seen = 0;
let prev: Snap | null = null;

const eventsFor = (s: Snap): Ev[] => {
  const changes: Ev[] = s.context.validate
    ? [
        { type: 'form.change', values: { email: ' a@b.c ' } },
        { type: 'form.change', values: { password: 'secret' } },
        { type: 'form.change', values: { email: '  ' } },
      ]
    : [{ type: 'form.change', values: { department_id: 'd2', unit_id: null } }];
  const common: Ev[] = [{ type: 'form.reset' }, { type: 'form.reset', values: s.context.validate ? { email: '', password: '' } : { department_id: 'd1', unit_id: null } }];
  if (s.matches('submitting')) {
    return [
      { type: 'xstate.done.actor.submit', output: { message: 'sent' }, actorId: 'submit' } as never,
      { type: 'xstate.error.actor.submit', error: new Error(FAILED), actorId: 'submit' } as never,
      { type: 'form.submit' },
      ...changes,
      ...common,
    ];
  }
  if (s.matches('succeeded')) return [{ type: 'form.submit' }, ...common];
  return [...changes, { type: 'form.submit' }, { type: 'form.dismissError' }, ...common];
};

/** Each step's reported events: exactly one per settled submission, none otherwise. */
const checkReported = (e: { type: string } | null) => {
  const fresh = reported.slice(seen);
  seen = reported.length;
  if (e?.type === 'xstate.done.actor.submit') expect(fresh).toEqual([{ type: 'form.succeeded', result: { message: 'sent' } }]);
  else if (e?.type === 'xstate.error.actor.submit') expect(fresh).toEqual([{ type: 'form.failed', error: FAILED }]);
  else expect(fresh).toEqual([]);
};

/** A change sets its fields and clears their sentences, and touches nothing else. */
const checkChange = (s: Snap, e: { type: string } | null, p: Snap | null) => {
  if (e?.type !== 'form.change' || !p) return;
  const { values } = e as Extract<Ev, { type: 'form.change' }>;
  expect(s.context.values).toEqual({ ...p.context.values, ...values });
  for (const field of Object.keys(values)) expect(s.context.fieldErrors[field]).toBeUndefined();
  expect(s.context.error).toBe(p.context.error);
};

const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  expect(s.hasTag('busy')).toBe(s.matches('submitting'));
  expect(Boolean(s.children.submit)).toBe(s.matches('submitting'));
  checkReported(e);
  checkChange(s, e, p);
  if (e?.type === 'form.reset' && p) {
    const { values } = e as Extract<Ev, { type: 'form.reset' }>;
    expect(s.context.values).toEqual(values ?? p.context.values);
    expect(s.context.fieldErrors).toEqual({});
    expect(s.context.error).toBeNull();
    expect(s.context.result).toBeNull();
  }
  fn(s, e, p);
  prev = s;
  submittedBefore = submitted.length;
};

runModelTest({
  name: 'form',
  machine: formMachine,
  testMachine: () => formMachine.provide({ actors: { submit: pendingActor((i) => submitted.push(i)) } }),
  onActor: (actor) => {
    submitted = [];
    submittedBefore = 0;
    reported = [];
    seen = 0;
    prev = null;
    actor.on('form.succeeded', (e) => reported.push(e));
    actor.on('form.failed', (e) => reported.push(e));
  },
  inputs,
  events: eventsFor,
  // Guards read whether the values pass the check; the field errors and the failure sentence are what a view shows.
  key: (s) => JSON.stringify([s.value, s.context.values, s.context.fieldErrors, s.context.error !== null]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.values]),
  checks: {
    editing: check((s, e, p) => {
      if (e?.type === 'form.submit' && p) {
        // Refused by the check: nothing sent, each wrong field says why, the values stay.
        expect(p.matches('editing')).toBe(true);
        expect(s.context.fieldErrors).toEqual(validate(s.context.values));
        expect(Object.keys(s.context.fieldErrors).length).toBeGreaterThan(0);
        expect(submitted).toHaveLength(submittedBefore);
        expect(s.context.values).toEqual(p.context.values);
      }
      if (e?.type === 'xstate.error.actor.submit' && p) {
        expect(s.context.error).toBe(FAILED);
        // What was typed is kept for another try.
        expect(s.context.values).toEqual(p.context.values);
      }
      if (e?.type === 'form.dismissError' || e === null) expect(s.context.error).toBeNull();
    }),
    submitting: check((s, e, p) => {
      expect(s.context.error).toBeNull();
      expect(s.context.fieldErrors).toEqual({});
      // One call per submit: a second submit while one is under way is ignored.
      if (e?.type === 'form.submit' && p?.matches('editing')) {
        expect(submitted).toHaveLength(submittedBefore + 1);
        expect(submitted.at(-1)).toEqual(s.context.values);
      } else expect(submitted).toHaveLength(submittedBefore);
      if (e?.type === 'form.submit' && p?.matches('submitting')) expect(s.context).toEqual(p.context);
    }),
    succeeded: check((s, e, p) => {
      expect(s.context.result).toEqual({ message: 'sent' });
      expect(s.context.error).toBeNull();
      expect(submitted).toHaveLength(submittedBefore);
      // Sent once: a submit now does nothing.
      if (e?.type === 'form.submit' && p) expect(s.context).toEqual(p.context);
    }),
  },
});
