/**
 * The landing page's 'Let's Register!' contact form: its options and texts (administration spec, sections 5 and 8),
 * without zod, so the contact form machine (machines/) imports them. The rules themselves are in
 * shared/contact-form-rules.ts, applied alike by the machine and by POST /feedbacks/contact-form.
 */

// The options and the field sentences live with the rules: shared/contact-form-rules.ts.

export const CONTACT_NAME_MAX_LENGTH = 200;
export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const CONTACT_PHONE_MAX_LENGTH = 30;

export const NAME_TOO_LONG = `Name cannot be more than ${CONTACT_NAME_MAX_LENGTH} characters`;

export const RECAPTCHA_REQUIRED = 'Please complete the reCAPTCHA verification';
export const RECAPTCHA_EXPIRED = 'reCAPTCHA has expired. Please verify again.';
export const RECAPTCHA_FAILED = 'reCAPTCHA verification failed. Please try again.';
export const RECAPTCHA_LOAD_FAILED = 'reCAPTCHA failed to load. Please refresh the page.';

/** An address of the company's own staff domain: the form stops and offers Go to Login instead. */
export const STAFF_EMAIL_REGISTERED = 'Your email has been registered. Please proceed to login.';

export const CONTACT_BAD_REQUEST = 'Please check your form data and try again.';
export const CONTACT_SERVER_ERROR = 'Server error occurred. Please try again later.';
export const CONTACT_NETWORK_ERROR = 'Failed to submit form. Please check your connection and try again.';
export const CONTACT_SENT = 'Contact form has been sent successfully! Our team will contact you soon.';
/** 503 without RECAPTCHA_SECRET: a lead is never taken unverified. */
export const CONTACT_NOT_CONFIGURED = 'The contact form is not available right now. Please try again later.';
/** 429 past CONTACT_RATE_LIMIT_PER_IP, given the wait ("45 minutes"). */
export const tooManyContactForms = (wait: string) => `Too many submissions from your network. Please try again in ${wait}.`;

/** The superuser's Leads list. */
export const CONTACT_LEADS_PAGE_SIZE = 20;
export const FAILED_TO_FETCH_LEADS = 'Failed to fetch leads';
