import type { FormEvent } from 'react';
import { requestPasswordReset } from '../../api/auth';
import { useForm } from '../../lib/use-form';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { EMPTY_RESET_REQUEST as EMPTY, resetRequestErrors } from './reset-request-check';

export function ResetRequestModal({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange(open: boolean): void }) {
  const form = useForm({
    initial: EMPTY,
    validate: resetRequestErrors,
    submit: ({ email }) => requestPasswordReset(email.trim()),
    fallbackError: 'Failed to send reset email. Please try again.',
  });
  const { email } = form.values;

  // Closed, the form starts afresh: the next opening shows an empty field and no sentence.
  const close = (open: boolean) => {
    onOpenChange(open);
    if (!open) form.reset(EMPTY);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.submit();
  };

  if (form.succeeded) {
    return (
      <Modal isOpen={isOpen} onOpenChange={close} title="Check your email" size="sm">
        <p>Password reset instructions sent to {email.trim()}</p>
        <div className="mt-6 flex justify-end">
          <Button variant="primary" onPress={() => close(false)}>
            OK
          </Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal isOpen={isOpen} onOpenChange={close} title="Forgot Password" size="sm">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-sm text-gray-600 dark:text-gray-300">
          Enter the email address of your account and we will send you a link to reset your password.
        </p>
        {form.error && <ErrorBanner message={form.error} onDismiss={form.dismissError} />}
        <TextField
          label="Email"
          name="reset-email"
          type="email"
          autoComplete="email"
          placeholder="Enter your email"
          value={email}
          onChange={(value) => form.change({ email: value })}
          isRequired
          isDisabled={form.busy}
          errorMessage={form.fieldErrors.email}
          autoFocus
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onPress={() => close(false)} isDisabled={form.busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" isDisabled={form.busy}>
            {form.busy ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
