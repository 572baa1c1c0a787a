import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { resetPassword } from '../../api/auth';
import { useFormSubmit } from '../../lib/use-form-submit';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { emptyPasswordPair, NewPasswordFields, newPasswordState } from '../../ui/new-password-fields';

export default function ResetPasswordPage() {
  const { token } = useParams();
  const [pair, setPair] = useState(emptyPasswordPair);
  const form = useFormSubmit(resetPassword, 'Failed to reset password. Please try again.');
  const canSubmit = Boolean(token) && newPasswordState(pair).complete && !form.busy;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (canSubmit && token) form.submit({ token, new_password: pair.password });
  };

  return (
    <div className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 shadow-sm dark:border-gray-700 dark:bg-gray-900">
        {form.succeeded ? (
          <div className="space-y-4 text-center">
            <h1 className="text-2xl font-semibold">Password Updated!</h1>
            <p className="text-gray-600 dark:text-gray-300">Your password has been successfully updated</p>
            <ButtonLink href="/login" variant="primary">
              Return to Login
            </ButtonLink>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <h1 className="text-2xl font-semibold">Set a new password</h1>
            {!token && <ErrorBanner message="Invalid or missing reset token" />}
            {form.error && <ErrorBanner message={form.error} onDismiss={form.dismissError} />}
            <NewPasswordFields value={pair} onChange={setPair} isDisabled={form.busy} />
            <Button type="submit" variant="primary" className="w-full" isDisabled={!canSubmit}>
              {form.busy ? 'Updating...' : 'Update Password'}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
