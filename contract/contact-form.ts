import { z } from 'zod';
import { pageFields } from './envelope';
import { pageField, requestBody } from './fields';
import {
  CONTACT_EMAIL_MAX_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
  CONTACT_PHONE_MAX_LENGTH,
  NAME_TOO_LONG,
} from './contact-form-constants';
import { hearAboutUsValues } from '../shared/contact-form-rules';

/**
 * POST /feedbacks/contact-form (public). The field rules (name, phone or e-mail, Malaysian phone, hearAboutUs) are
 * shared/contact-form-rules.ts, applied by the route so the sentences are the form's own; this schema only shapes.
 * Answers: 200 `{ message }`; 400 with `detail` (and `fields`); 429 rate limit; 503 when reCAPTCHA has no secret.
 */
export const contactFormRequest = requestBody({
  name: z.string({ error: 'name must be text' }).max(CONTACT_NAME_MAX_LENGTH, NAME_TOO_LONG).default(''),
  phone: z.string({ error: 'phone must be text' }).max(CONTACT_PHONE_MAX_LENGTH).default(''),
  email: z.string({ error: 'email must be text' }).max(CONTACT_EMAIL_MAX_LENGTH).default(''),
  hearAboutUs: z.string({ error: 'hearAboutUs must be text' }).max(50).default(''),
  recaptcha_token: z.string({ error: 'recaptcha_token must be text' }).max(4_000).default(''),
});
export type ContactFormRequest = z.input<typeof contactFormRequest>;

/** GET /feedbacks/contact-form/settings (public): what the landing page's form needs to run. */
export const contactFormSettings = z.object({
  /** Null: reCAPTCHA is not configured and Submit stays disabled. */
  recaptcha_site_key: z.string().nullable(),
  recaptcha_script_url: z.string(),
  staff_email_domain: z.string(),
});
export type ContactFormSettings = z.infer<typeof contactFormSettings>;

export const contactLead = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  hearAboutUs: z.enum(hearAboutUsValues),
  created_at: z.string(),
});
export type ContactLead = z.infer<typeof contactLead>;

/** GET /feedbacks/contact-leads (superuser): newest first. */
export const contactLeadsQuery = z.object({ page: pageField() });
export const contactLeadsPage = z.object({ leads: z.array(contactLead), ...pageFields });
export type ContactLeadsPage = z.infer<typeof contactLeadsPage>;
