import { ACTIVATION_TTL_HOURS } from '../../contract/registration-constants';
import type { MailMessage } from './mailer';
import { escapeHtml } from './reset-mail';

/** The e-mail that invites a newly registered person to choose their password. */
export function activationMail(user: { name: string; email: string }, link: string): MailMessage {
  const closing = `The link works once and expires in ${ACTIVATION_TTL_HOURS} hours. If it has expired, open it anyway to ask for a new one.`;
  const text = [
    `Hello ${user.name},`,
    '',
    'An account was created for you on Tanya. To activate it and choose your password, open this link:',
    '',
    link,
    '',
    closing,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; color: #111827">
<p>Hello ${escapeHtml(user.name)},</p>
<p>An account was created for you on Tanya. To activate it and choose your password, open this link:</p>
<p><a href="${escapeHtml(link)}">Activate your account</a></p>
<p style="color: #4b5563">${escapeHtml(closing)}</p>
</body></html>`;
  return { to: user.email, subject: 'Activate your Tanya account', text, html };
}
