// The contact form's rules (administration spec, section 5): the landing page's machine and the server's
// POST /feedbacks/contact-form apply these same functions, so the two can never disagree.

export const hearAboutUsOptions = [
  { value: 'social_media', label: 'Social Media' },
  { value: 'search', label: 'Search' },
  { value: 'staff', label: 'Referred by our staff' },
] as const;
export type HearAboutUs = (typeof hearAboutUsOptions)[number]['value'];
export const hearAboutUsValues = hearAboutUsOptions.map((o) => o.value) as [HearAboutUs, ...HearAboutUs[]];

/** The spec's sentences (administration spec section 5). */
export const NAME_REQUIRED = 'Name field is required';
export const PHONE_OR_EMAIL_REQUIRED = 'Either Phone Number/Email is required';
export const INVALID_PHONE = 'Please enter a valid Malaysian phone number';
export const INVALID_EMAIL = 'Please enter a valid email address';
export const FIELD_REQUIRED = 'This field is required';

/**
 * A Malaysian number once spaces, dashes and brackets are gone: +60, 60 or 0, then a mobile prefix 1x and 7 to 8
 * digits, or a landline prefix 3 to 9 and 7 to 8 digits.
 */
const MALAYSIAN_PHONE = /^(\+?60|0)(1\d\d{7,8}|[3-9]\d{7,8})$/;

export function normalisedPhone(phone: string): string {
  return phone.replace(/[\s\-()]/g, '');
}

export function isMalaysianPhone(phone: string): boolean {
  return MALAYSIAN_PHONE.test(normalisedPhone(phone));
}

/** Deliberately loose (the mail server is the judge): something@domain.tld without spaces. */
export function isEmailAddress(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** The company's own people (STAFF_EMAIL_DOMAIN, or any subdomain of it) already have accounts. */
export function isStaffEmail(email: string, staffDomain: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1];
  const staff = staffDomain.toLowerCase();
  return domain !== undefined && (domain === staff || domain.endsWith(`.${staff}`));
}

export interface ContactFields {
  name: string;
  phone: string;
  email: string;
  hearAboutUs: string;
}

export type ContactFieldErrors = Partial<Record<keyof ContactFields, string>>;

/** Each field's sentence, or none; 'Either Phone Number/Email is required' is shown on both fields. */
export function contactFieldErrors(fields: ContactFields): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  const phone = fields.phone.trim();
  const email = fields.email.trim();
  if (fields.name.trim() === '') errors.name = NAME_REQUIRED;
  if (phone === '' && email === '') {
    errors.phone = PHONE_OR_EMAIL_REQUIRED;
    errors.email = PHONE_OR_EMAIL_REQUIRED;
  } else {
    if (phone !== '' && !isMalaysianPhone(phone)) errors.phone = INVALID_PHONE;
    if (email !== '' && !isEmailAddress(email)) errors.email = INVALID_EMAIL;
  }
  if (!(hearAboutUsValues as readonly string[]).includes(fields.hearAboutUs)) errors.hearAboutUs = FIELD_REQUIRED;
  return errors;
}

export function isHearAboutUs(value: string): value is HearAboutUs {
  return (hearAboutUsValues as readonly string[]).includes(value);
}
