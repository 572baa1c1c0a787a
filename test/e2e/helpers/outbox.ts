import { readdir, readFile } from 'node:fs/promises';
import { decodeQuotedPrintable } from '../../server/helpers/smtp-peer';
import { localDataDir } from './accounts';

/**
 * The local server's mails (DATA_DIR/outbox), oldest first, decoded. Only whole `.eml` files: the server writes each
 * under a `.part` name and renames it (server/platform/mailer.ts), and a `.part` listed a moment ago may be gone.
 */
export async function outboxMails(): Promise<string[]> {
  const dir = `${localDataDir}/outbox`;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map(async (f) => decodeQuotedPrintable(await readFile(`${dir}/${f}`, 'utf8'))));
}
