import type { MailMessage } from '../../../server/platform/mailer';
import { PUBLIC_URL } from './test-app';

/** The activation code of a mail's link (`${PUBLIC_URL}/activate/{code}`), checked in the text and the HTML part. */
export function activationCodeFrom(mail: MailMessage): string {
  const pattern = new RegExp(`${PUBLIC_URL.replace(/[.]/g, '\\.')}/activate/([A-Za-z0-9_-]{20,})`);
  const inText = pattern.exec(mail.text);
  if (!inText) throw new Error(`no activation link in mail:\n${mail.text}`);
  if (!mail.html.includes(`href="${PUBLIC_URL}/activate/${inText[1]}"`)) throw new Error('the HTML part links elsewhere');
  return inText[1];
}
