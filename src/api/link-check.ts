import { paths } from '../../contract/api-paths';
import type { MessageOnly } from '../../contract/envelope';
import { api } from './http';

/** POST /auth/reset-password/check (public): resolves while the reset link works, else rejects with the refusal. */
export async function checkResetLink(token: string): Promise<void> {
  await api.post<MessageOnly>(paths.resetPasswordCheck, { token }, { noRefresh: true });
}

/** POST /auth/activate/check (public): resolves while the activation link works, else rejects with activating's refusal. */
export async function checkActivationLink(activationCode: string): Promise<void> {
  await api.post<MessageOnly>(paths.activateCheck, { activation_code: activationCode }, { noRefresh: true });
}
