import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { activationFailureCodes, type ActivationFailureCode } from '../../../contract/registration-constants';
import { accountActivationMachine, activationFailure, type ActivateInput } from '../../../machines/account-activation.machine';
import { ApiError, errorText } from '../../api/api-error';
import { checkActivationLink } from '../../api/link-check';
import { activateAccount, resendExpiredActivation } from '../../api/registration';

const FALLBACK = 'Activation failed. Please try again.';
const CHECK_FALLBACK = 'Could not check the activation link';
const RESEND_FALLBACK = 'Failed to send verification email';

/** An API failure as the machine reads it: the sentence, and the server's `code` when it is one of activation's. */
function asFailure(error: unknown, fallback: string) {
  const code = error instanceof ApiError ? error.code : undefined;
  const reason = activationFailureCodes.includes(code as ActivationFailureCode) ? (code as ActivationFailureCode) : null;
  return activationFailure(errorText(error, fallback), reason);
}

const machine = accountActivationMachine.provide({
  actors: {
    check: fromPromise<unknown, string>(async ({ input }) => {
      try {
        return await checkActivationLink(input);
      } catch (error) {
        throw asFailure(error, CHECK_FALLBACK);
      }
    }),
    activate: fromPromise<unknown, ActivateInput>(async ({ input }) => {
      try {
        return await activateAccount(input);
      } catch (error) {
        throw asFailure(error, FALLBACK);
      }
    }),
    resend: fromPromise<unknown, string>(async ({ input }) => {
      try {
        return await resendExpiredActivation(input);
      } catch (error) {
        throw asFailure(error, RESEND_FALLBACK);
      }
    }),
  },
});

/** The activation screen's machine for the code of the link. */
export function useAccountActivation(activationCode: string) {
  const [snapshot, send] = useMachine(machine, { input: { activationCode } });
  const commands = useMemo(
    () => ({
      submit: (password: string) => send({ type: 'activation.submit', password }),
      dismissError: () => send({ type: 'activation.dismissError' }),
      resend: () => send({ type: 'activation.resend' }),
    }),
    [send],
  );
  return {
    state: snapshot.value,
    busy: snapshot.hasTag('busy'),
    checking: snapshot.hasTag('checking'),
    error: snapshot.context.error,
    resendError: snapshot.context.resendError,
    ...commands,
  };
}
