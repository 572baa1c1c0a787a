import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { resetPassword } from '../../api/auth';
import { useFormSubmit } from '../../lib/use-form-submit';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { TextField } from '../../ui/text-field';
import { PASSWORD_MIN_LENGTH } from '../../../contract/auth';

export default function ResetPasswordPage() {
  const { token } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const form = useFormSubmit(resetPassword, 'Failed to reset password. Please try again.');
  const mismatch = confirm.length > 0 && password !== confirm;
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN_LENGTH;
  const canSubmit = Boolean(token) && password.length > 0 && password === confirm && !tooShort && !form.busy;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (canSubmit && token) form.submit({ token, new_password: password });
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
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              isRequired
              isDisabled={form.busy}
              description={`At least ${PASSWORD_MIN_LENGTH} characters`}
              errorMessage={tooShort ? `Password must be at least ${PASSWORD_MIN_LENGTH} characters` : undefined}
            />
            <TextField
              label="Confirm password"
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={setConfirm}
              isRequired
              isDisabled={form.busy}
              errorMessage={mismatch ? 'Passwords do not match' : undefined}
            />
            <Button type="submit" variant="primary" className="w-full" isDisabled={!canSubmit}>
              {form.busy ? 'Updating...' : 'Update Password'}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
