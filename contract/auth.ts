import { z } from 'zod';
import { user } from './user';

export const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const newPassword = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const loginRequest = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const tokens = z.object({ access_token: z.string(), refresh_token: z.string() });
export type Tokens = z.infer<typeof tokens>;

export const loginResponse = tokens.extend({ user });
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshResponse = tokens;
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const logoutRequest = z.object({ refresh_token: z.string().max(512).optional() });
export type LogoutRequest = z.infer<typeof logoutRequest>;

export const requestResetPasswordRequest = z.object({ email });
export type RequestResetPasswordRequest = z.infer<typeof requestResetPasswordRequest>;

export const resetPasswordRequest = z.object({
  token: z.string({ error: 'Invalid or missing reset token' }).min(1, 'Invalid or missing reset token').max(512),
  new_password: newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** Error codes the SPA's login screen understands in `/login?error=...`. */
export const loginUrlErrors = ['subscription_expired', 'sso_not_configured', 'sso_failed'] as const;
