import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import { ensurePrivateDir } from '../lib/private-files';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailReceipt {
  /** Outbox only: the .eml file the mail was written to. */
  file?: string;
}

export interface Mailer {
  /** 'outbox': no SMTP configured, mails are .eml files in DATA_DIR/outbox (the log says which file). */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailReceipt>;
  close(): void;
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
        return {};
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      // Mails carry reset links: for the owner only.
      ensurePrivateDir(outbox);
      // Timestamp first so `ls` lists mails in the order they were sent.
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      // Written under another name and renamed: whoever reads the outbox (an operator, a pickup, the tests) sees a
      // mail whole or not at all. Written in place, an .eml was there empty for a moment (a server test read it so).
      const partial = `${file}.part`;
      await fs.writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await fs.rename(partial, file);
      return { file };
    },
    close: () => transport.close(),
  };
}
