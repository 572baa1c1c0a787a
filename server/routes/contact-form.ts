import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { contactFormRequest, contactFormSettings, contactLeadsPage, contactLeadsQuery } from '../../contract/contact-form';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { contactFormSettings as settingsOf, contactLeads, submitContactForm } from '../services/contact/contact-form';

export async function contactFormRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contact form'];

  api.get(
    paths.contactFormSettings,
    {
      schema: {
        summary: "The landing page contact form's settings",
        description: 'Public. The reCAPTCHA site key (null: not configured, Submit stays disabled), its script URL and the staff e-mail domain.',
        tags,
        response: { 200: successEnvelope(contactFormSettings) },
      },
    },
    async () => ok(settingsOf(ctx)),
  );

  api.post(
    paths.contactForm,
    {
      schema: {
        summary: "Send the landing page's 'Let's Register!' form",
        description:
          'Public. Name required; phone or e-mail; a phone must be Malaysian; hearAboutUs one of the options; an address of the ' +
          "company's staff domain is told to log in (400). The reCAPTCHA token is verified with RECAPTCHA_SECRET (400 when refused; " +
          '503 when no secret is configured, the verifier refuses it or cannot be reached: a lead is never taken unverified). At most ' +
          'CONTACT_RATE_LIMIT_PER_IP per address per hour (429). The lead is stored and mailed to SALES_EMAIL.',
        tags,
        body: contactFormRequest,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => {
      const message = await submitContactForm(ctx, request.body as Required<typeof request.body>, request.ip, request.log);
      return ok({ message }, message);
    },
  );

  api.get(
    paths.contactLeads,
    {
      onRequest: guards.requireRole('superuser'),
      schema: {
        summary: "The contact form's leads",
        description: 'Superuser only. Newest first, 20 a page.',
        tags,
        querystring: contactLeadsQuery,
        response: { 200: successEnvelope(contactLeadsPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await contactLeads(ctx, request.query.page)),
  );
}
