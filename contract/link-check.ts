import { z } from 'zod';
import { requestBody } from './fields';
import { ACTIVATION_LINK_INVALID } from './registration-constants';

/**
 * Checking a mailed link before anything is typed: the reset and activation screens ask whether their token still
 * works, so an unknown, used or expired link says so at once instead of after the person chose a password.
 * The answer tells nothing beyond that (no name, no address).
 */
export const LINK_VALID = 'This link is valid';
/** The reset screen's sentence for a link that cannot set a password (also the server's refusal of the reset). */
export const INVALID_RESET_LINK = 'Invalid or expired reset token';

/** POST /auth/reset-password/check */
export const resetLinkCheckRequest = requestBody({
  token: z.string({ error: INVALID_RESET_LINK }).min(1, INVALID_RESET_LINK).max(512, INVALID_RESET_LINK),
});
export type ResetLinkCheckRequest = z.infer<typeof resetLinkCheckRequest>;

/** POST /auth/activate/check */
export const activationLinkCheckRequest = requestBody({
  activation_code: z.string({ error: ACTIVATION_LINK_INVALID }).min(1, ACTIVATION_LINK_INVALID).max(512, ACTIVATION_LINK_INVALID),
});
export type ActivationLinkCheckRequest = z.infer<typeof activationLinkCheckRequest>;
