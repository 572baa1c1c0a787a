/** The 'Forgot Password' form's field and its check, before any call (spec section 1, Login). */
export const EMPTY_RESET_REQUEST = { email: '' };

export const EMAIL_REQUIRED = 'Email is required';
export const EMAIL_INVALID = 'Enter a valid email address';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function resetRequestErrors({ email }: typeof EMPTY_RESET_REQUEST): { email?: string } {
  const value = email.trim();
  if (!value) return { email: EMAIL_REQUIRED };
  return EMAIL_PATTERN.test(value) ? {} : { email: EMAIL_INVALID };
}
