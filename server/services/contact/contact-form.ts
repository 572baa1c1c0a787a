import type { FastifyBaseLogger } from 'fastify';
import type { ContactFormRequest, ContactFormSettings, ContactLeadsPage } from '../../../contract/contact-form';
import {
  CONTACT_LEADS_PAGE_SIZE,
  CONTACT_NOT_CONFIGURED,
  CONTACT_SENT,
  RECAPTCHA_FAILED,
  RECAPTCHA_REQUIRED,
  STAFF_EMAIL_REGISTERED,
  tooManyContactForms,
} from '../../../contract/contact-form-constants';
import { contactFieldErrors, isStaffEmail, normalisedPhone, type HearAboutUs } from '../../../shared/contact-form-rules';
import type { AppContext } from '../../context';
import { insertContactLead, listContactLeads } from '../../db/repositories/contact-leads';
import { enforceRateLimits } from '../../platform/rate-limit';
import { InvalidError, UnavailableError } from '../errors';
import { totalPages } from '../paging';
import { verifyRecaptcha } from './recaptcha';

export const RECAPTCHA_UNREACHABLE = 'The reCAPTCHA check cannot be reached right now. Please try again later.';

/** GET /feedbacks/contact-form/settings: what the landing page's form needs; never the secret. */
export function contactFormSettings(ctx: AppContext): ContactFormSettings {
  const c = ctx.config.contactForm;
  return { recaptcha_site_key: c.recaptchaSiteKey ?? null, recaptcha_script_url: c.recaptchaScriptUrl, staff_email_domain: c.staffEmailDomain };
}

/**
 * POST /feedbacks/contact-form: the landing page's 'Let's Register!' lead. The same rules as the form
 * (shared/contact-form-rules.ts), the reCAPTCHA token verified with our secret (none configured: refused, a lead is
 * never taken unverified), a limit per address, then the lead is stored and the sales address mailed (a job).
 */
export async function submitContactForm(ctx: AppContext, input: Required<ContactFormRequest>, ip: string, log: FastifyBaseLogger): Promise<string> {
  const config = ctx.config.contactForm;

  const fields = { name: input.name, phone: input.phone, email: input.email, hearAboutUs: input.hearAboutUs };
  const errors = contactFieldErrors(fields);
  const first = Object.values(errors)[0];
  if (first) throw new InvalidError(first, errors);
  const email = input.email.trim().toLowerCase();
  if (email && isStaffEmail(email, config.staffEmailDomain)) throw new InvalidError(STAFF_EMAIL_REGISTERED, { email: STAFF_EMAIL_REGISTERED });
  if (input.recaptcha_token.trim() === '') throw new InvalidError(RECAPTCHA_REQUIRED, { recaptcha_token: RECAPTCHA_REQUIRED });
  // The person's mistakes are told first; a form that is right waits for the operator's configuration.
  if (!config.recaptchaSecret) throw new UnavailableError(CONTACT_NOT_CONFIGURED);
  // Counted before the verifier is asked, so a burst cannot make us flood it; a form refused above costs nothing.
  await enforceRateLimits(ctx.rateLimits, [{ key: `contact:ip:${ip}`, rule: config.perIp, refusal: tooManyContactForms }]);

  const verdict = await verifyRecaptcha(config, input.recaptcha_token, ip);
  if (verdict === 'unreachable') {
    log.warn('contact form: the reCAPTCHA verifier could not be reached');
    throw new UnavailableError(RECAPTCHA_UNREACHABLE);
  }
  if (verdict === 'misconfigured') {
    log.error('contact form: the reCAPTCHA verifier refused RECAPTCHA_SECRET; no lead can be taken until it is corrected');
    throw new UnavailableError(CONTACT_NOT_CONFIGURED);
  }
  if (verdict === 'refused') throw new InvalidError(RECAPTCHA_FAILED, { recaptcha_token: RECAPTCHA_FAILED });

  const lead = await insertContactLead(ctx.db, {
    name: input.name.trim(),
    phone: input.phone.trim() ? normalisedPhone(input.phone) : null,
    email: email || null,
    hear_about_us: input.hearAboutUs as HearAboutUs,
    ip,
  });
  if (config.salesEmail) await ctx.jobs.enqueue('contact-lead-mail', { leadId: lead.id });
  log.info({ lead_id: lead.id }, 'contact form: lead stored');
  return CONTACT_SENT;
}

/** GET /feedbacks/contact-leads (superuser): newest first. */
export async function contactLeads(ctx: AppContext, page: number): Promise<ContactLeadsPage> {
  const { rows, total } = await listContactLeads(ctx.db, page, CONTACT_LEADS_PAGE_SIZE);
  return {
    leads: rows.map((r) => ({ id: r.id, name: r.name, phone: r.phone, email: r.email, hearAboutUs: r.hear_about_us as HearAboutUs, created_at: r.created_at })),
    page,
    page_size: CONTACT_LEADS_PAGE_SIZE,
    total,
    total_pages: totalPages(total, CONTACT_LEADS_PAGE_SIZE),
  };
}
