import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { registerRequest, type RegisterRequest } from '../../../contract/registration';
import { REGISTRATION_FAILED, USER_REGISTERED } from '../../../contract/registration-constants';
import { registerUser } from '../../api/registration';
import { useForm } from '../../lib/use-form';
import { useSession } from '../../session/session';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { PageTitle } from '../../ui/page-title';
import { TextField } from '../../ui/text-field';
import { toast } from '../../ui/toast';

/** The server's own rules for the two fields, so the form words a mistake exactly as the server would. */
const fieldRules = registerRequest.pick({ name: true, email: true });
type FieldErrors = Partial<Record<'name' | 'email', string>>;
const EMPTY = { name: '', email: '' };

function fieldErrors(values: typeof EMPTY): FieldErrors {
  const result = fieldRules.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof FieldErrors;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A warning stays until closed: the admin has to act on it (resend from the Users page). */
const MAIL_WARNING_MS = 0;

export default function RegisterPage() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const myRole = useSession((c) => c.user?.role);
  // Spec: the Users page sends role (admin for a superuser, else user) and client_id.
  const role = (query.get('role') ?? (myRole === 'superuser' ? 'admin' : 'user')) as RegisterRequest['role'];
  const clientId = query.get('client_id') || undefined;

  const form = useForm({
    initial: EMPTY,
    validate: fieldErrors,
    submit: ({ name, email }) => registerUser({ name: name.trim(), email: email.trim(), role, ...(clientId ? { client_id: clientId } : {}) }),
    fallbackError: REGISTRATION_FAILED,
    onSucceeded: (result) => {
      if (result.user.activation_email_sent) toast.success(USER_REGISTERED);
      else toast.warning(result.message ?? USER_REGISTERED, { duration: MAIL_WARNING_MS });
      navigate('/users');
    },
  });
  const { values, fieldErrors: errors } = form;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.submit();
  };

  return (
    <div className="mx-auto max-w-2xl space-y-6 p-6 md:p-10">
      <PageTitle description="The new person gets an e-mail with a link to activate their account and choose a password.">
        New User Information
      </PageTitle>
      <form
        onSubmit={onSubmit}
        noValidate
        className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-700 dark:bg-gray-900"
      >
        {form.error && <ErrorBanner message={form.error} onDismiss={form.dismissError} />}
        <TextField
          label="Full Name"
          autoComplete="off"
          value={values.name}
          onChange={(name) => form.change({ name })}
          isRequired
          isDisabled={form.busy}
          errorMessage={errors.name}
        />
        <TextField
          label="Email address"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={(email) => form.change({ email })}
          isRequired
          isDisabled={form.busy}
          errorMessage={errors.email}
        />
        <div className="flex justify-end gap-3">
          <ButtonLink href="/users" variant="secondary">
            Cancel
          </ButtonLink>
          <Button type="submit" variant="primary" isDisabled={form.busy}>
            {form.busy ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </div>
  );
}
