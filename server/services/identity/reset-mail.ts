import type { AppContext } from '../../context';
import { insertPasswordReset } from '../../db/repositories/password-resets';
import { findUserById } from '../../db/repositories/users';
import type { MailMessage } from '../../platform/mailer';
import { newOpaqueToken } from './tokens';

/** A reset link works for an hour. */
export const RESET_TOKEN_TTL_MS = 3_600_000;

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

/**
 * The 'password-reset-mail' job: a fresh reset link for the person, mailed. The link is made here, not by the request,
 * so the job's payload holds no secret; a retry makes a new one (an unsent link reaches nobody and expires).
 */
export async function sendPasswordResetMail(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>, userId: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || user.status !== 'active') return;
  const reset = newOpaqueToken();
  await insertPasswordReset(ctx.db, { user_id: user.id, token_hash: reset.hash }, RESET_TOKEN_TTL_MS);
  const { file } = await ctx.mailer.send(passwordResetMail(user, `${ctx.config.publicUrl}/reset-password/${reset.token}`));
  // Where the operator finds the mail; never the link, which is a password for whoever reads the log.
  if (file) ctx.log.info({ to: user.email, file }, 'password reset mail written to the outbox');
}
