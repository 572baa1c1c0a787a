import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { updateProfile } from '../../api/users';
import { sessionActor, useSession } from '../../session/session';
import { useForm } from '../../lib/use-form';
import { Button, ButtonLink } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { PageTitle } from '../../ui/page-title';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { toast } from '../../ui/toast';
import { useDepartments } from './use-departments';

/** The two choices as the selects hold them: nothing chosen is null. */
type ProfileChoice = { department_id: string | null; unit_id: string | null };

export const PROFILE_NOTICE = 'You need to set your Department before you can access the system.';

export default function ProfilePage() {
  const navigate = useNavigate();
  const me = useSession((c) => c.user);
  const departments = useDepartments();
  const form = useForm({
    initial: { department_id: me?.department_id ?? null, unit_id: me?.unit_id ?? null } as ProfileChoice,
    // The button is enabled only with a department chosen (the unit is optional).
    validate: (choice: ProfileChoice) => (choice.department_id ? {} : { department_id: 'Select a department' }),
    submit: ({ department_id, unit_id }: ProfileChoice) => updateProfile({ department_id: department_id as string, unit_id }),
    fallbackError: 'Failed to update profile',
    onSucceeded: (result) => {
      const tokens =
        result.access_token && result.refresh_token ? { access_token: result.access_token, refresh_token: result.refresh_token } : undefined;
      sessionActor.send({ type: 'session.replaced', user: result.user, tokens });
      toast.success('Profile updated successfully');
      // The page stays: the choice just saved can be changed again.
      form.reset();
      if (result.user.department_id && result.user.unit_id) navigate('/home');
    },
    // A failure is a toast; the choice stays for another try.
    onFailed: (error) => {
      toast.error(error);
      form.dismissError();
    },
  });
  const { department_id: departmentId, unit_id: unitId } = form.values;

  if (!me) return null;
  const units = departments?.find((d) => d.id === departmentId)?.units ?? [];
  // Spec: the notice shows whenever the department is missing (only users are forced here). A superuser belongs to no
  // organisation, so has no department to set: no notice, and no department fields.
  const inOrganisation = me.role !== 'superuser';
  const mustComplete = inOrganisation && !me.department_id;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.submit();
  };

  return (
    <div className="mx-auto max-w-2xl p-6 md:p-10">
      {me.role === 'user' && (
        <nav aria-label="Account" className="mb-6 flex justify-end gap-2">
          {me.department_id && (
            <ButtonLink href="/chat" variant="ghost" size="sm">
              Back to Chat
            </ButtonLink>
          )}
          <ButtonLink href="/logout" variant="ghost" size="sm">
            Logout
          </ButtonLink>
        </nav>
      )}
      <PageTitle>My Profile</PageTitle>
      {mustComplete && (
        <div className="mt-4">
          <Notice tone="warning">
            <strong>Please complete your profile:</strong> {PROFILE_NOTICE}
          </Notice>
        </div>
      )}
      <form onSubmit={onSubmit} className="mt-6 space-y-5 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-700 dark:bg-gray-900">
        <TextField label="Name" value={me.name} isReadOnly />
        <TextField label="Email" type="email" value={me.email} isReadOnly />
        {inOrganisation ? (
          <>
        <Select
          label="Department"
          placeholder={departments ? 'Select a department' : 'Loading departments...'}
          items={(departments ?? []).map((d) => ({ id: d.id, label: d.name }))}
          selectedKey={departmentId}
          // Another department's units differ: the unit is chosen again.
          onSelectionChange={(key) => form.change({ department_id: key, unit_id: null })}
          isDisabled={!departments || form.busy}
          isRequired
        />
        <Select
          label="Unit"
          placeholder={departmentId ? 'Select a unit' : 'Select a department first'}
          items={units.map((u) => ({ id: u.id, label: u.name }))}
          selectedKey={unitId}
          onSelectionChange={(key) => form.change({ unit_id: key })}
          isDisabled={!departmentId || form.busy}
        />
        <div className="flex justify-end">
          <Button type="submit" variant="primary" isDisabled={!form.canSubmit}>
            {form.busy ? 'Updating...' : 'Update Profile'}
          </Button>
        </div>
          </>
        ) : (
          <p className="text-sm text-gray-700 dark:text-gray-300">
            As a superuser you belong to no organisation, so there is no department or unit to set.
          </p>
        )}
      </form>
    </div>
  );
}
