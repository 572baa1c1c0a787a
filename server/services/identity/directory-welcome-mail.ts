import type { AppContext } from '../../context';
import { findClientById } from '../../db/repositories/clients';
import { findUserById } from '../../db/repositories/users';
import type { MailMessage } from '../../platform/mailer';
import { escapeHtml } from './reset-mail';

/**
 * The e-mail that tells a person registered in an organisation that signs in with its own directory (LDAP) how to
 * sign in: with the e-mail and password they use at work. No activation link: a password chosen on Tanya would never
 * be asked for, since the directory alone judges theirs.
 */
export function directoryWelcomeMail(user: { name: string; email: string }, organisation: string, loginLink: string): MailMessage {
  const how = `Sign in with this e-mail address (${user.email}) and the password you use for ${organisation}'s network. To change that password, use your organisation's own tools: Tanya does not keep it.`;
  const text = [`Hello ${user.name},`, '', 'An account was created for you on Tanya.', '', how, '', loginLink].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; color: #111827">
<p>Hello ${escapeHtml(user.name)},</p>
<p>An account was created for you on Tanya.</p>
<p>${escapeHtml(how)}</p>
<p><a href="${escapeHtml(loginLink)}">Sign in to Tanya</a></p>
</body></html>`;
  return { to: user.email, subject: 'Your Tanya account', text, html };
}

/** The 'directory-welcome-mail' job: retried while the mail server is down, like a reset mail. */
export async function sendDirectoryWelcomeMail(ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>, userId: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || user.status !== 'active' || !user.client_id) return;
  const client = await findClientById(ctx.db, user.client_id);
  if (!client) return;
  const { file } = await ctx.mailer.send(directoryWelcomeMail(user, client.client_name, `${ctx.config.publicUrl}/login`));
  if (file) ctx.log.info({ to: user.email, file }, 'directory welcome mail written to the outbox');
}
