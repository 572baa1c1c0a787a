import type { MailMessage } from './mailer';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function passwordResetMail(user: { name: string; email: string }, link: string): MailMessage {
  const text = [
    `Hello ${user.name},`,
    '',
    'Someone asked to reset the password of your Tanya account. To choose a new password, open this link:',
    '',
    link,
    '',
    'The link works once and expires in 1 hour. If you did not ask for this, ignore this e-mail: your password stays the same.',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; color: #111827">
<p>Hello ${escapeHtml(user.name)},</p>
<p>Someone asked to reset the password of your Tanya account. To choose a new password, open this link:</p>
<p><a href="${escapeHtml(link)}">Reset your password</a></p>
<p style="color: #4b5563">The link works once and expires in 1 hour. If you did not ask for this, ignore this e-mail: your password stays the same.</p>
</body></html>`;
  return { to: user.email, subject: 'Reset your Tanya password', text, html };
}
