import type { SnapshotFrom } from 'xstate';
import {
  ACTIVATION_ACCOUNT_INACTIVE,
  ACTIVATION_LINK_EXPIRED,
  ACTIVATION_LINK_INVALID,
  ACTIVATION_LINK_USED,
} from '../../../contract/registration-constants';
import { accountActivationMachine, activationFailure } from '../../../machines/account-activation.machine';
import { isLocalServer } from '../helpers/accounts';
import { mailApi } from '../helpers/mail-api';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof accountActivationMachine>;

export const ACTIVATION_FAILED = 'Activation failed. Please try again.';
export const RESEND_FAILED = 'Failed to send verification email';
export const CHECK_FAILED = 'Could not check the activation link';

/** Why the server refuses, as the browser step makes it happen (see account-activation.paths.spec.ts). */
export const failures = {
  used: activationFailure(ACTIVATION_LINK_USED, 'activation_used'),
  expired: activationFailure(ACTIVATION_LINK_EXPIRED, 'activation_expired'),
  invalid: activationFailure(ACTIVATION_LINK_INVALID, 'activation_invalid'),
  inactive: activationFailure(ACTIVATION_ACCOUNT_INACTIVE, 'activation_inactive'),
  /** The request never reaches the server (forced with a route stub). */
  offline: activationFailure(ACTIVATION_FAILED, null),
  resendOffline: activationFailure(RESEND_FAILED, null),
  /** The check gets no answer (a route stub): the form is shown and the activation itself will tell. */
  checkOffline: activationFailure(CHECK_FAILED, null),
};

/**
 * The person opens their link (the path's start; the screen checks it before showing the form) and chooses a
 * password; the server accepts or refuses for each reason the screen handles; an expired link asks for a new one. Only what a person can do is offered: the banner's
 * Dismiss only while there is a banner, nothing in the end states.
 */
function eventsFor(s: Snap): Step[] {
  const error = (id: string, e: Error): Step => ({ type: `xstate.error.actor.${id}`, error: e, actorId: id });
  switch (valueName(s.value)) {
    case 'checking':
      return [
        { type: 'xstate.done.actor.check', output: 'ok', actorId: 'check' },
        error('check', failures.used),
        error('check', failures.expired),
        error('check', failures.invalid),
        error('check', failures.inactive),
        error('check', failures.checkOffline),
      ];
    case 'form':
      return [{ type: 'activation.submit', password: 'path-password-1' }, ...(s.context.error ? [{ type: 'activation.dismissError' }] : [])];
    case 'activating':
      return [
        { type: 'xstate.done.actor.activate', output: 'ok', actorId: 'activate' },
        error('activate', failures.used),
        error('activate', failures.expired),
        error('activate', failures.invalid),
        error('activate', failures.inactive),
        error('activate', failures.offline),
      ];
    case 'expired':
      return [{ type: 'activation.resend' }];
    case 'resending':
      return [
        { type: 'xstate.done.actor.resend', output: 'ok', actorId: 'resend' },
        error('resend', failures.invalid),
        error('resend', failures.resendOffline),
      ];
    default:
      return [];
  }
}

export { accountActivationMachine };
/** Why a staging run without a mail-catcher skips these paths (the spec says it; coverage.ts reports it). */
export const ACTIVATION_NEEDS_MAIL = 'each path opens the activation link from its mail: set E2E_MAIL_API to the deployment\'s mail-catcher (a Mailpit API) to run them';
export const accountActivationLocalOnly = isLocalServer || mailApi ? undefined : ACTIVATION_NEEDS_MAIL;

/**
 * A new link for an expired one: a deployment's links last 72 hours, so there the expiry is the server's answer forced
 * with a stub, and the real server then mails no new link for the (unexpired) one. Locally the link is made expired
 * in the server's database and the new link arrives.
 */
const mailsNewLink = (e: Step) => e.type === 'xstate.done.actor.resend';
export const accountActivationPaths = asSteps<{ activationCode: string }>(
  coveringPaths(
    accountActivationMachine,
    maximalPaths({
      machine: accountActivationMachine,
      inputs: [{ activationCode: 'from-the-mail' }],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.error !== null, s.context.resendError !== null]),
      simpleKey: (s) => JSON.stringify(s.value),
      edgeKeys: true,
      filterEvents: (_s, e) => isLocalServer || !mailsNewLink(e as Step),
    }),
  ),
);
