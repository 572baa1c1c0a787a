import { ACTIVATION_TTL_HOURS } from '../../../contract/registration-constants';
import type { AppContext } from '../../context';
import { findUserById } from '../../db/repositories/users';
import { inTransaction } from '../../db/transaction';
import type { MailMessage } from '../../platform/mailer';
import { newActivationCode } from './registration';
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

/**
 * The 'activation-mail' job: a fresh activation link (the person's earlier ones end) for someone who has not activated
 * yet, mailed. Registration and resends wait for its one attempt and report a failure (the admin resends); a process
 * that dies before it has run leaves it to another. The link never reaches the log: it is a password for whoever
 * reads it.
 */
export async function sendActivationMail(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>, userId: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || user.verified || user.status !== 'active') return;
  const code = await inTransaction(ctx.db, (trx) => newActivationCode(trx, user.id));
  const { file } = await ctx.mailer.send(activationMail(user, `${ctx.config.publicUrl}/activate/${code}`));
  if (file) ctx.log.info({ to: user.email, file }, 'activation mail written to the outbox');
}
