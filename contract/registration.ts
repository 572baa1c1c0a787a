import { z } from 'zod';
import { email, newPassword } from './auth';
import { choiceField, idField, requestBody, requiredText } from './fields';
import { ACTIVATION_LINK_INVALID } from './registration-constants';
import { user } from './user';
import { USER_NAME_MAX_LENGTH, USER_NAME_NOT_TEXT, USER_NAME_REQUIRED, USER_NAME_TOO_LONG } from './users-constants';

/** POST /auth/register: an admin registers a user of their organisation; the superuser an organisation's admin. */
export const registerRequest = requestBody({
  name: z
    .string(requiredText(USER_NAME_REQUIRED, USER_NAME_NOT_TEXT))
    .trim()
    .min(1, USER_NAME_REQUIRED)
    .max(USER_NAME_MAX_LENGTH, USER_NAME_TOO_LONG)
    .describe(`Trimmed; at most ${USER_NAME_MAX_LENGTH} characters.`),
  email: email.describe('Trimmed and stored lower-cased; unique across the whole service.'),
  role: choiceField('role', ['user', 'admin']).describe("Admins create 'user', the superuser creates 'admin'."),
  client_id: idField('client_id')
    .optional()
    .describe("The organisation. Required for the superuser; an admin may leave it out (their own) but name no other."),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/** The new person, plus whether the activation e-mail went out (if not, resend it later). */
export const registerResponse = user.extend({ activation_email_sent: z.boolean() });
export type RegisterResponse = z.infer<typeof registerResponse>;

/** An activation code as it arrives in a body or a query (no length promise beyond "could be one"). */
const activationCode = z
  .string({ error: ACTIVATION_LINK_INVALID })
  .min(1, ACTIVATION_LINK_INVALID)
  .max(512, ACTIVATION_LINK_INVALID);

/**
 * POST /auth/resend-activation: `user_id` (an admin or the superuser, signed in) or `activation_code` (anyone
 * holding an expired link of a person still to activate), exactly one of them.
 */
export const resendActivationQuery = z
  .object({
    user_id: idField('user_id').optional(),
    activation_code: activationCode.optional(),
  })
  .refine((q) => (q.user_id === undefined) !== (q.activation_code === undefined), {
    error: 'Give either user_id or activation_code',
    path: ['user_id'],
  });
export type ResendActivationQuery = z.infer<typeof resendActivationQuery>;

/** POST /auth/activate: the code from the link and the password the person chooses (the reset's rules). */
export const activateRequest = requestBody({
  activation_code: activationCode,
  new_password: newPassword,
});
export type ActivateRequest = z.infer<typeof activateRequest>;
