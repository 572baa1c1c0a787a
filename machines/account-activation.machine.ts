import { assertEvent, assign, setup } from 'xstate';
import type { ActivationFailureCode } from '../contract/registration-constants';
import { notProvided } from './not-provided';

/**
 * The activation screen (/activate/{activation_code}): the person chooses a password for the code of their link.
 * The link is checked first (`checking`), so a used, expired or unknown link says so before any password is typed;
 * a check that gets no answer leaves the form to the activation itself. The server's refusal says which step comes
 * next: a used link -> sign in instead; an expired one -> ask for a new
 * link (sent to the person's own address); an invalid one -> nothing to do here. Any other failure (an inactive
 * account, a network error) stays on the form with its sentence.
 */

/** How the `activate` and `resend` actors reject: the server's sentence and its `code`, when it gave one. */
export type ActivationFailure = Error & { reason: ActivationFailureCode | null };

export function activationFailure(message: string, reason: ActivationFailureCode | null): ActivationFailure {
  return Object.assign(new Error(message), { reason });
}

const reasonOf = (error: unknown): ActivationFailureCode | null =>
  typeof error === 'object' && error !== null ? ((error as { reason?: ActivationFailureCode | null }).reason ?? null) : null;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface ActivateInput {
  activation_code: string;
  new_password: string;
}

export interface AccountActivationContext {
  activationCode: string;
  /** The form's error banner. */
  error: string | null;
  /** Why asking for a new link failed (shown on the expired state). */
  resendError: string | null;
}

export type AccountActivationEvent =
  | { type: 'activation.submit'; password: string }
  | { type: 'activation.dismissError' }
  | { type: 'activation.resend' };

export const accountActivationMachine = setup({
  types: {
    context: {} as AccountActivationContext,
    events: {} as AccountActivationEvent,
    input: {} as { activationCode: string },
    tags: {} as 'busy' | 'checking',
  },
  actors: {
    /** Whether the code still activates: resolves when it does, rejects with the refusal activating would give. */
    check: notProvided<unknown, string>('check'),
    activate: notProvided<unknown, ActivateInput>('activate'),
    resend: notProvided<unknown, string>('resend'),
  },
  guards: {
    refusedFor: ({ event }, params: { reason: ActivationFailureCode }) => reasonOf((event as { error?: unknown }).error) === params.reason,
  },
  actions: {
    clearError: assign({ error: null }),
    showError: assign({ error: ({ event }) => messageOf((event as { error?: unknown }).error) }),
    clearResendError: assign({ resendError: null }),
    showResendError: assign({ resendError: ({ event }) => messageOf((event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'accountActivation',
  context: ({ input }) => ({ activationCode: input.activationCode, error: null, resendError: null }),
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy', 'checking'],
      description: 'Asks whether the link still works before the form is shown.',
      invoke: {
        id: 'check',
        src: 'check',
        input: ({ context }) => context.activationCode,
        onDone: { target: 'form' },
        onError: [
          { guard: { type: 'refusedFor', params: { reason: 'activation_used' } }, target: 'used' },
          { guard: { type: 'refusedFor', params: { reason: 'activation_expired' } }, target: 'expired' },
          { guard: { type: 'refusedFor', params: { reason: 'activation_invalid' } }, target: 'invalid' },
          // An inactive account: the form says so at once; the activation would be refused the same way.
          { guard: { type: 'refusedFor', params: { reason: 'activation_inactive' } }, target: 'form', actions: 'showError' },
          // No answer: the activation itself will tell.
          { target: 'form' },
        ],
      },
    },
    form: {
      description: 'The activation form: the person chooses a password (and sees why the last try was refused, if it was).',
      on: {
        'activation.submit': { target: 'activating', actions: 'clearError' },
        'activation.dismissError': { actions: 'clearError' },
      },
    },
    activating: {
      description: 'The chosen password is being sent; the form waits for the answer.',
      tags: ['busy'],
      invoke: {
        id: 'activate',
        src: 'activate',
        input: ({ context, event }) => {
          assertEvent(event, 'activation.submit');
          return { activation_code: context.activationCode, new_password: event.password };
        },
        onDone: { target: 'activated' },
        onError: [
          { guard: { type: 'refusedFor', params: { reason: 'activation_used' } }, target: 'used' },
          { guard: { type: 'refusedFor', params: { reason: 'activation_expired' } }, target: 'expired' },
          { guard: { type: 'refusedFor', params: { reason: 'activation_invalid' } }, target: 'invalid' },
          { target: 'form', actions: 'showError' },
        ],
      },
    },
    activated: { description: 'The account is active: the page says so and the person can sign in.' },
    used: { description: 'The link was already used: the page says so.' },
    invalid: { description: 'The link is not valid: the page says so.' },
    expired: {
      description: 'The link has expired: the person may ask for a new activation email.',
      on: { 'activation.resend': { target: 'resending', actions: 'clearResendError' } },
    },
    resending: {
      description: 'A new activation email is being asked for.',
      tags: ['busy'],
      invoke: {
        id: 'resend',
        src: 'resend',
        input: ({ context }) => context.activationCode,
        onDone: { target: 'resent' },
        onError: [
          // The link stopped qualifying meanwhile (e.g. the person activated through a newer one).
          { guard: { type: 'refusedFor', params: { reason: 'activation_invalid' } }, target: 'invalid' },
          { target: 'expired', actions: 'showResendError' },
        ],
      },
    },
    resent: { description: 'A new activation email was sent: the page says so.' },
  },
});
