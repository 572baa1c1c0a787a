import type { FormEvent, ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import {
  ACCOUNT_ACTIVATED,
  ACTIVATION_LINK_EXPIRED,
  ACTIVATION_LINK_INVALID,
  ACTIVATION_LINK_USED,
  NEW_ACTIVATION_LINK_SENT,
} from '../../../contract/registration-constants';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { Spinner } from '../../ui/spinner';
import { useForm } from '../../lib/use-form';
import { emptyPasswordPair, NewPasswordFields } from '../../ui/new-password-fields';
import { passwordPairErrors } from './password-pair-check';
import { useAccountActivation } from './use-account-activation';

/** One card for every state of the screen, centred like the other public account screens. */
function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-700 dark:bg-gray-900">
        {children}
      </div>
    </div>
  );
}

/** An end state: a heading, its sentence, and what to do next. */
function Outcome({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <div className="space-y-4 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-gray-600 dark:text-gray-300">{text}</p>
      {children}
    </div>
  );
}

function ActivateForm({ activationCode }: { activationCode: string }) {
  const activation = useAccountActivation(activationCode);
  // The pair and its check; the activation machine sends the password and says how it went, so the form is
  // ready again at once (what was typed stays, for another try after a refusal).
  const form = useForm({
    initial: emptyPasswordPair,
    validate: passwordPairErrors,
    submit: async (pair) => activation.submit(pair.password),
    fallbackError: '',
    onSucceeded: () => form.reset(),
  });
  const canSubmit = form.canSubmit && !activation.busy;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (canSubmit) form.submit();
  };

  switch (activation.state) {
    case 'activated':
      return (
        <Outcome title="Account activated!" text={ACCOUNT_ACTIVATED}>
          <ButtonLink href="/login" variant="primary">
            Go to Login
          </ButtonLink>
        </Outcome>
      );
    case 'used':
      return (
        <Outcome title="Link already used" text={ACTIVATION_LINK_USED}>
          <ButtonLink href="/login" variant="primary">
            Sign in
          </ButtonLink>
        </Outcome>
      );
    case 'invalid':
      return (
        <Outcome title="Invalid activation link" text={ACTIVATION_LINK_INVALID}>
          <ButtonLink href="/" variant="secondary">
            Go to the home page
          </ButtonLink>
        </Outcome>
      );
    case 'expired':
    case 'resending':
      return (
        <Outcome title="Link expired" text={ACTIVATION_LINK_EXPIRED}>
          {activation.resendError && <ErrorBanner message={activation.resendError} />}
          <Button variant="primary" onPress={activation.resend} isDisabled={activation.busy}>
            {activation.busy ? 'Sending...' : 'Send me a new link'}
          </Button>
        </Outcome>
      );
    case 'resent':
      return <Outcome title="Check your e-mail" text={NEW_ACTIVATION_LINK_SENT} />;
    case 'checking':
      // The link is checked before any password is typed.
      return (
        <div role="status" className="flex items-center justify-center gap-3 py-6 text-gray-700 dark:text-gray-300">
          <Spinner />
          Checking your activation link...
        </div>
      );
    default:
      return (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <h1 className="text-2xl font-semibold">Activate your account</h1>
          <p className="text-sm text-gray-600 dark:text-gray-300">Choose the password you will sign in with.</p>
          {activation.error && <ErrorBanner message={activation.error} onDismiss={activation.dismissError} />}
          <NewPasswordFields value={form.values} onChange={form.change} isDisabled={activation.busy} />
          <Button type="submit" variant="primary" className="w-full" isDisabled={!canSubmit}>
            {activation.busy ? 'Activating...' : 'Activate Account'}
          </Button>
        </form>
      );
  }
}

export default function ActivatePage() {
  const { activationCode } = useParams();
  return (
    <Panel>
      {activationCode ? (
        // Keyed: another link opened in the same tab starts afresh.
        <ActivateForm key={activationCode} activationCode={activationCode} />
      ) : (
        <Outcome title="Invalid activation link" text={ACTIVATION_LINK_INVALID} />
      )}
    </Panel>
  );
}
