import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { resetPassword } from '../../api/auth';
import { useForm } from '../../lib/use-form';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { Spinner } from '../../ui/spinner';
import { emptyPasswordPair, NewPasswordFields, type NewPasswordPair } from '../../ui/new-password-fields';
import { passwordPairErrors } from './password-pair-check';
import { ResetRequestModal } from './reset-request-modal';
import { useResetLinkCheck } from './use-reset-link-check';

/** A link that cannot set a password: said at once, with a way to ask for a new one. */
function InvalidLink({ text }: { text: string }) {
  const [requesting, setRequesting] = useState(false);
  return (
    <div className="space-y-4 text-center">
      <h1 className="text-2xl font-semibold">Reset link not valid</h1>
      <p className="text-gray-600 dark:text-gray-300">{text}. Reset links work once, for a limited time: ask for a new one.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button variant="primary" onPress={() => setRequesting(true)}>
          Request a new link
        </Button>
        <ButtonLink href="/login" variant="secondary">
          Return to Login
        </ButtonLink>
      </div>
      <ResetRequestModal isOpen={requesting} onOpenChange={setRequesting} />
    </div>
  );
}

export default function ResetPasswordPage() {
  const { token } = useParams();
  return (
    <div className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-700 dark:bg-gray-900">
        {token ? (
          // Keyed: another link opened in the same tab is checked afresh.
          <ResetForm key={token} token={token} />
        ) : (
          <InvalidLink text="Invalid or missing reset token" />
        )}
      </div>
    </div>
  );
}

function ResetForm({ token }: { token: string }) {
  const link = useResetLinkCheck(token);
  const form = useForm({
    initial: emptyPasswordPair,
    validate: passwordPairErrors,
    submit: (pair: NewPasswordPair) => resetPassword({ token, new_password: pair.password }),
    fallbackError: 'Failed to reset password. Please try again.',
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.submit();
  };

  if (link.checking) {
    return (
      <div role="status" className="flex items-center justify-center gap-3 py-6 text-gray-700 dark:text-gray-300">
        <Spinner />
        Checking your reset link...
      </div>
    );
  }
  if (link.refusal) return <InvalidLink text={link.refusal} />;
  if (form.succeeded) {
    return (
      <div className="space-y-4 text-center">
        <h1 className="text-2xl font-semibold">Password Updated!</h1>
        <p className="text-gray-600 dark:text-gray-300">Your password has been successfully updated</p>
        <ButtonLink href="/login" variant="primary">
          Return to Login
        </ButtonLink>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <h1 className="text-2xl font-semibold">Set a new password</h1>
      {form.error && <ErrorBanner message={form.error} onDismiss={form.dismissError} />}
      <NewPasswordFields value={form.values} onChange={form.change} isDisabled={form.busy} />
      <Button type="submit" variant="primary" className="w-full" isDisabled={!form.canSubmit}>
        {form.busy ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
