import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  ACTIVATION_ACCOUNT_INACTIVE,
  ACTIVATION_LINK_EXPIRED,
  ACTIVATION_LINK_INVALID,
  ACTIVATION_LINK_USED,
} from '../../contract/registration-constants';
import {
  accountActivationMachine,
  activationFailure,
  type ActivateInput,
} from '../../machines/account-activation.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof accountActivationMachine>;
type Ev = EventFrom<typeof accountActivationMachine>;

const CODE = 'code-from-the-link';
const used = activationFailure(ACTIVATION_LINK_USED, 'activation_used');
const expired = activationFailure(ACTIVATION_LINK_EXPIRED, 'activation_expired');
const invalid = activationFailure(ACTIVATION_LINK_INVALID, 'activation_invalid');
const inactive = activationFailure(ACTIVATION_ACCOUNT_INACTIVE, 'activation_inactive');
const offline = activationFailure('Network Error', null);

let activations: ActivateInput[] = [];
let resends: string[] = [];
let checks: string[] = [];
let prev: Snap | null = null;

const testMachine = () =>
  accountActivationMachine.provide({
    actors: {
      check: pendingActor<unknown, string>((i) => checks.push(i)),
      activate: pendingActor<unknown, ActivateInput>((i) => activations.push(i)),
      resend: pendingActor<unknown, string>((i) => resends.push(i)),
    },
  });

function eventsFor(s: Snap): Ev[] {
  const done = (id: string) => ({ type: `xstate.done.actor.${id}`, output: 'ok', actorId: id }) as never;
  const error = (id: string, e: Error) => ({ type: `xstate.error.actor.${id}`, error: e, actorId: id }) as never;
  switch (s.value) {
    case 'checking':
      return [
        done('check'),
        error('check', used),
        error('check', expired),
        error('check', invalid),
        error('check', inactive),
        error('check', offline),
        { type: 'activation.submit', password: 'too-early' },
      ];
    case 'form':
      return [{ type: 'activation.submit', password: 'chosen-password' }, { type: 'activation.dismissError' }, { type: 'activation.resend' }];
    case 'activating':
      return [
        done('activate'),
        error('activate', used),
        error('activate', expired),
        error('activate', invalid),
        error('activate', inactive),
        error('activate', offline),
        { type: 'activation.submit', password: 'twice' },
      ];
    case 'expired':
      return [{ type: 'activation.resend' }, { type: 'activation.submit', password: 'too-late' }];
    case 'resending':
      return [done('resend'), error('resend', invalid), error('resend', offline), { type: 'activation.resend' }];
    default:
      // Every end state ignores what the form could still send.
      return [{ type: 'activation.submit', password: 'again' }, { type: 'activation.resend' }];
  }
}

function checkStep(s: Snap, e: { type: string; error?: Error } | null) {
  const p = prev;
  prev = s;
  expect(s.context.activationCode).toBe(CODE);
  expect(s.hasTag('busy')).toBe(s.matches('checking') || s.matches('activating') || s.matches('resending'));
  expect(s.hasTag('checking')).toBe(s.matches('checking'));
  // The link is checked once, when the screen opens, before anything can be typed.
  if (s.matches('checking')) expect(checks).toEqual([CODE]);
  else expect(checks).toHaveLength(1);
  // Exactly one call per entry into a busy state, with the link's code.
  if (s.matches('activating') && !p?.matches('activating')) expect(activations.at(-1)).toEqual({ activation_code: CODE, new_password: 'chosen-password' });
  if (s.matches('resending') && !p?.matches('resending')) expect(resends.at(-1)).toBe(CODE);
  expect(s.can({ type: 'activation.resend' })).toBe(s.matches('expired'));
  expect(s.can({ type: 'activation.submit', password: 'x' })).toBe(s.matches('form'));

  if (e?.type === 'xstate.done.actor.check') expect([s.value, s.context.error]).toEqual(['form', null]);
  if (e?.type === 'xstate.error.actor.check') {
    // A refused link says so before any password is typed; no answer leaves the form to the activation.
    const expected = { [ACTIVATION_LINK_USED]: 'used', [ACTIVATION_LINK_EXPIRED]: 'expired', [ACTIVATION_LINK_INVALID]: 'invalid' }[e.error!.message];
    expect(s.value).toBe(expected ?? 'form');
    expect(s.context.error).toBe(e.error === inactive ? ACTIVATION_ACCOUNT_INACTIVE : null);
    expect(activations).toEqual([]);
  }
  if (e?.type === 'xstate.error.actor.activate') {
    const expected = { [ACTIVATION_LINK_USED]: 'used', [ACTIVATION_LINK_EXPIRED]: 'expired', [ACTIVATION_LINK_INVALID]: 'invalid' }[e.error!.message];
    expect(s.value).toBe(expected ?? 'form');
    // The banner shows only what the screen has no state of its own for.
    expect(s.context.error).toBe(expected ? null : e.error!.message);
  } else if (s.matches('form') && e?.type !== 'activation.resend' && e?.type !== 'xstate.error.actor.check') {
    expect(s.context.error).toBeNull();
  }
  if (e?.type === 'xstate.error.actor.resend') {
    if (e.error === invalid) expect(s.value).toBe('invalid');
    else expect([s.value, s.context.resendError]).toEqual(['expired', 'Network Error']);
  }
  // A new attempt starts without the last one's error; an ignored event keeps it.
  if (s.matches('resending') || s.matches('resent') || (s.matches('expired') && e?.type === 'xstate.error.actor.activate')) {
    expect(s.context.resendError).toBeNull();
  }
}

runModelTest({
  name: 'account-activation',
  machine: accountActivationMachine,
  testMachine,
  onActor: () => {
    activations = [];
    resends = [];
    checks = [];
    prev = null;
  },
  inputs: [{ activationCode: CODE }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.error !== null, s.context.resendError !== null]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: Object.fromEntries(
    ['checking', 'form', 'activating', 'activated', 'used', 'invalid', 'expired', 'resending', 'resent'].map((state) => [state, checkStep as never]),
  ),
});

describe('account activation (examples)', () => {
  it('shows an expired link at once, offering a new one, before any password is typed', () => {
    const actor = createActor(testMachine(), { input: { activationCode: CODE } }).start();
    expect(actor.getSnapshot().hasTag('checking')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'activation.submit', password: 'x' })).toBe(false);
    actor.send({ type: 'xstate.error.actor.check', error: expired, actorId: 'check' } as never);
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().can({ type: 'activation.resend' })).toBe(true);
  });

  it('keeps the form and its banner for an inactive account, and dismisses it', () => {
    const actor = createActor(testMachine(), { input: { activationCode: CODE } }).start();
    actor.send({ type: 'xstate.done.actor.check', output: 'ok', actorId: 'check' } as never);
    actor.send({ type: 'activation.submit', password: 'chosen-password' });
    actor.send({ type: 'xstate.error.actor.activate', error: inactive, actorId: 'activate' } as never);
    expect(actor.getSnapshot().value).toBe('form');
    expect(actor.getSnapshot().context.error).toBe(ACTIVATION_ACCOUNT_INACTIVE);
    actor.send({ type: 'activation.dismissError' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
