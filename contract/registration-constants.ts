// Texts of registering people and activating accounts (administration spec sections 5 and 8, plus this project's
// own sentences for what the spec leaves unsaid), free of zod: the SPA's forms check them before sending.

/** How long an activation link works. */
export const ACTIVATION_TTL_HOURS = 72;

/** Register user (spec section 5). */
export const SUPERUSER_CREATES_ADMINS_ONLY = 'Superusers can only create admin users';
export const ADMIN_CREATES_USERS_ONLY = 'Admins can only create regular users';

/** Spec section 8. */
export const USER_REGISTERED = 'User registered successfully';
export const VERIFICATION_EMAIL_SENT = 'Verification email sent successfully';
export const REGISTRATION_FAILED = 'Registration failed';
export const USER_CREATE_FAILED = 'Failed to create user';
export const VERIFICATION_EMAIL_FAILED = 'Failed to send verification email';

export const REGISTERED_BUT_MAIL_FAILED =
  'User registered, but the activation e-mail could not be sent. Use "Resend verification" on the Users page to try again.';
/** A person of a directory (LDAP) organisation: their mail says how to sign in, and its job tries again later. */
export const REGISTERED_DIRECTORY_MAIL_LATE =
  'User registered. The e-mail telling them how to sign in could not be sent yet; it will be tried again.';
export const EMAIL_TAKEN = 'A user with this email address already exists';
export const CLIENT_ID_REQUIRED = 'Choose the organisation (client_id) the new admin belongs to';
export const OTHER_ORGANISATION_REGISTRATION = 'You can only register people in your own organisation';
export const NO_CURRENT_SUBSCRIPTION =
  'This organisation has no current subscription, so nobody can be added or activated. Ask for a subscription first.';
export const SEAT_LIMIT_REACHED = (maxUsers: number) =>
  `This organisation's subscription allows ${maxUsers} active user${maxUsers === 1 ? '' : 's'}. ` +
  'Deactivate someone or ask for a bigger subscription.';
export const ALREADY_VERIFIED = 'This user has already activated their account';

/** Activation screen and its errors; `code` of the error envelope tells the screen which step to offer. */
export const ACTIVATION_LINK_INVALID = 'This activation link is not valid. Check that you opened the whole link from the e-mail.';
export const ACTIVATION_LINK_USED = 'This activation link has already been used. Sign in with the password you chose.';
export const ACTIVATION_LINK_EXPIRED = `This activation link has expired (links work for ${ACTIVATION_TTL_HOURS} hours). You can ask for a new one.`;
export const ACTIVATION_ACCOUNT_INACTIVE = 'This account is inactive, so it cannot be activated. Please contact your administrator.';
export const ACCOUNT_ACTIVATED = 'Your account is activated. You can now sign in.';
export const NEW_ACTIVATION_LINK_SENT = 'A new activation link is on its way to your e-mail address.';

export const activationFailureCodes = ['activation_invalid', 'activation_used', 'activation_expired', 'activation_inactive'] as const;
export type ActivationFailureCode = (typeof activationFailureCodes)[number];
export const RESEND_TO_INACTIVE_USER = 'This user is inactive: activate them first, then resend the verification e-mail.';
