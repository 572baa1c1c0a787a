import { paths } from '../../contract/api-paths';
import type { MessageOnly } from '../../contract/envelope';
import type { ActivateRequest, RegisterRequest, RegisterResponse } from '../../contract/registration';
import { api } from './http';

/** POST /auth/register: the new person, and the server's sentence (it says when the e-mail could not be sent). */
export async function registerUser(body: RegisterRequest): Promise<{ user: RegisterResponse; message?: string }> {
  const res = await api.post<RegisterResponse>(paths.register, body);
  return { user: res.data, message: res.message };
}

/** POST /auth/resend-activation?activation_code= (public: a new link for an expired one). */
export async function resendExpiredActivation(activationCode: string): Promise<string | undefined> {
  const res = await api.post<MessageOnly>(paths.resendActivation, undefined, { query: { activation_code: activationCode }, noRefresh: true });
  return res.data?.message ?? res.message;
}

/** POST /auth/activate (public). */
export async function activateAccount(body: ActivateRequest): Promise<string | undefined> {
  const res = await api.post<MessageOnly>(paths.activate, body, { noRefresh: true });
  return res.data?.message ?? res.message;
}
