import { decodeQuotedPrintable } from '../../server/helpers/smtp-peer';

// A deployment's mail is out of a test's reach unless it is sent to a mail-catcher QA can read. E2E_MAIL_API names
// one that speaks Mailpit's HTTP API (https://mailpit.axllent.org/docs/api-v1/), the usual catcher on staging
// (MailHog-era setups can run Mailpit on the same SMTP port): the server's SMTP_URL points at the catcher, and the
// paths that follow a mailed link (account activation) read it there. Without it those paths are skipped, saying so.
// `tsx test/e2e/helpers/mail-catcher.ts` is a small stand-in for trying a staging run on one machine.

/** The catcher's base address (no trailing slash), or null when this run cannot read a deployment's mail. */
export const mailApi = process.env.E2E_MAIL_API?.replace(/\/+$/, '') || null;


interface MailSummary {
  ID: string;
  To: Array<{ Address: string }>;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`mail-catcher ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/** The raw source of every mail to `to`, oldest first, decoded (quoted-printable undone). */
export async function mailsTo(to: string): Promise<string[]> {
  if (!mailApi) throw new Error('E2E_MAIL_API is not set: no mail of a deployment can be read');
  const query = encodeURIComponent(`to:"${to}"`);
  const found = await getJson<{ messages: MailSummary[] }>(`${mailApi}/api/v1/search?query=${query}&limit=50`);
  // Mailpit lists the newest first (and two mails may share a millisecond): reversed, the oldest first.
  const mine = found.messages.filter((m) => m.To.some((r) => r.Address.toLowerCase() === to.toLowerCase())).reverse();
  const sources: string[] = [];
  for (const m of mine) {
    const response = await fetch(`${mailApi}/api/v1/message/${encodeURIComponent(m.ID)}/raw`);
    if (!response.ok) throw new Error(`mail-catcher message ${m.ID}: ${response.status}`);
    sources.push(decodeQuotedPrintable(await response.text()));
  }
  return sources;
}
