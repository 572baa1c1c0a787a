import { API_PREFIX, paths } from '../../contract/api-paths';
import type { LoginRequest, LoginResponse, RefreshResponse, ResetPasswordRequest } from '../../contract/auth';
import type { MessageOnly } from '../../contract/envelope';
import { api } from './http';

export async function login(body: LoginRequest): Promise<LoginResponse> {
  return (await api.post<LoginResponse>(paths.login, body, { noRefresh: true })).data;
}

export async function refreshTokens(refreshToken: string): Promise<RefreshResponse> {
  return (await api.post<RefreshResponse>(paths.refresh, undefined, { bearer: refreshToken, noRefresh: true })).data;
}

export async function logout(refreshToken: string | null): Promise<void> {
  if (!refreshToken) return;
  await api.post(paths.logout, { refresh_token: refreshToken }, { noRefresh: true });
}

export async function requestPasswordReset(email: string): Promise<string | undefined> {
  const res = await api.post<MessageOnly>(paths.requestResetPassword, { email }, { noRefresh: true });
  return res.data?.message ?? res.message;
}

export async function resetPassword(body: ResetPasswordRequest): Promise<string | undefined> {
  const res = await api.post<MessageOnly>(paths.resetPassword, body, { noRefresh: true });
  return res.data?.message ?? res.message;
}

/** Single sign-on starts with a full-page navigation, not a fetch: the IdP needs the browser. */
export function microsoftSignInUrl(origin: string): string {
  const base = import.meta.env.BASE_URL.replace(/\/$/, '');
  return `${base}${API_PREFIX}${paths.microsoftSso}?origin=${encodeURIComponent(origin)}`;
}
