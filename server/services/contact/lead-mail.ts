import { hearAboutUsOptions } from '../../../shared/contact-form-rules';
import type { AppContext } from '../../context';
import { findContactLead, type ContactLeadRecord } from '../../db/repositories/contact-leads';
import type { MailMessage } from '../../platform/mailer';
import { escapeHtml } from '../identity/reset-mail';

export function leadMail(to: string, lead: ContactLeadRecord): MailMessage {
  const heard = hearAboutUsOptions.find((o) => o.value === lead.hear_about_us)?.label ?? lead.hear_about_us;
  const rows: Array<[string, string]> = [
    ['Name', lead.name],
    ['Phone', lead.phone ?? '-'],
    ['E-mail', lead.email ?? '-'],
    ['Heard about us', heard],
    ['Received', lead.created_at],
  ];
  const text = ['A new lead registered on the Tanya landing page:', '', ...rows.map(([k, v]) => `${k}: ${v}`)].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; color: #111827">
<p>A new lead registered on the Tanya landing page:</p>
<table>${rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>
</body></html>`;
  return { to, subject: `New Tanya lead: ${lead.name.replace(/[\r\n]+/g, ' ')}`, text, html };
}

/** The 'contact-lead-mail' job: the stored lead, mailed to SALES_EMAIL (retried while the mail server is down). */
export async function sendLeadMail(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>, leadId: string): Promise<void> {
  const to = ctx.config.contactForm.salesEmail;
  const lead = await findContactLead(ctx.db, leadId);
  if (!to || !lead) return;
  const { file } = await ctx.mailer.send(leadMail(to, lead));
  if (file) ctx.log.info({ lead_id: lead.id, file }, 'lead mail written to the outbox');
}
