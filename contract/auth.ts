import { z } from 'zod';
import { requestBody, requiredText } from './fields';
import { user } from './user';

export const email = z
  .string(requiredText('Email is required', 'Enter a valid email address'))
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const newPassword = z
  .string(requiredText('Password is required', 'Password must be text'))
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const loginRequest = requestBody({
  email,
  password: z
    .string(requiredText('Password is required', 'Password must be text'))
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const tokens = z.object({ access_token: z.string(), refresh_token: z.string() });
export type Tokens = z.infer<typeof tokens>;

export const loginResponse = tokens.extend({ user });
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshResponse = tokens;
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const logoutRequest = requestBody({
  refresh_token: z.string({ error: 'refresh_token must be text' }).max(512, 'refresh_token is too long').optional(),
});
export type LogoutRequest = z.infer<typeof logoutRequest>;

export const requestResetPasswordRequest = requestBody({ email });
export type RequestResetPasswordRequest = z.infer<typeof requestResetPasswordRequest>;

export const resetPasswordRequest = requestBody({
  token: z
    .string({ error: 'Invalid or missing reset token' })
    .min(1, 'Invalid or missing reset token')
    .max(512, 'Invalid or missing reset token'),
  new_password: newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** Error codes the SPA's login screen understands in `/login?error=...`. */
export const loginUrlErrors = ['subscription_expired', 'sso_not_configured', 'sso_failed'] as const;
