import { PASSWORD_MIN_LENGTH } from '../../contract/auth';
import { TextField } from './text-field';

/** A password being chosen twice (reset and activation screens). */
export interface NewPasswordPair {
  password: string;
  confirm: string;
}

export const emptyPasswordPair: NewPasswordPair = { password: '', confirm: '' };

/** What the screens show and allow: 'Passwords do not match', too short, and whether the pair may be sent. */
export function newPasswordState({ password, confirm }: NewPasswordPair) {
  const mismatch = confirm.length > 0 && password !== confirm;
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN_LENGTH;
  return { mismatch, tooShort, complete: password.length > 0 && password === confirm && !tooShort };
}

export interface NewPasswordFieldsProps {
  value: NewPasswordPair;
  onChange(next: NewPasswordPair): void;
  isDisabled?: boolean;
}

/** 'New password' and 'Confirm password', with the spec's 'Passwords do not match' hint. */
export function NewPasswordFields({ value, onChange, isDisabled }: NewPasswordFieldsProps) {
  const { mismatch, tooShort } = newPasswordState(value);
  return (
    <>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={value.password}
        onChange={(password) => onChange({ ...value, password })}
        isRequired
        isDisabled={isDisabled}
        description={`At least ${PASSWORD_MIN_LENGTH} characters`}
        errorMessage={tooShort ? `Password must be at least ${PASSWORD_MIN_LENGTH} characters` : undefined}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={value.confirm}
        onChange={(confirm) => onChange({ ...value, confirm })}
        isRequired
        isDisabled={isDisabled}
        errorMessage={mismatch ? 'Passwords do not match' : undefined}
      />
    </>
  );
}
