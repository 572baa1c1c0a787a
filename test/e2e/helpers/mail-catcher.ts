import { createServer } from 'node:http';
import { startSmtpPeer } from '../../server/helpers/smtp-peer';

// A stand-in for a staging mail-catcher, to try `npm run test:staging` against a copy on one machine: it takes the
// server's mail over SMTP and answers the part of Mailpit's API the tests read (mail-api.ts), newest first as
// Mailpit does. `tsx test/e2e/helpers/mail-catcher.ts <smtpPort> <httpPort>`; then start the copy with
// SMTP_URL=smtp://127.0.0.1:<smtpPort>?ignoreTLS=true and run with E2E_MAIL_API=http://127.0.0.1:<httpPort>.

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
if (!smtpPort || !httpPort) {
  console.error('usage: tsx test/e2e/helpers/mail-catcher.ts <smtpPort> <httpPort>');
  process.exit(2);
}

// The server tests' SMTP peer keeps every mail; its place in that list is the mail's ID here.
const { received } = await startSmtpPeer(smtpPort);
const kept = () => received.map((mail, i) => ({ ID: String(i + 1), To: mail.to.map((Address) => ({ Address })), raw: mail.raw }));

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://catcher');
  const raw = /^\/api\/v1\/message\/([^/]+)\/raw$/.exec(url.pathname);
  if (raw) {
    const mail = kept().find((m) => m.ID === decodeURIComponent(raw[1]!));
    res.writeHead(mail ? 200 : 404, { 'content-type': 'text/plain' }).end(mail?.raw ?? 'not found');
    return;
  }
  if (url.pathname === '/api/v1/search') {
    // Only the `to:"address"` query the tests send.
    const to = /^to:"([^"]+)"$/.exec(url.searchParams.get('query') ?? '')?.[1]?.toLowerCase();
    const messages = kept()
      .filter((m) => m.To.some((r) => r.Address.toLowerCase() === to))
      .reverse()
      .map(({ ID, To }) => ({ ID, To }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages, messages_count: messages.length }));
    return;
  }
  res.writeHead(404).end();
}).listen(httpPort, '127.0.0.1', () => console.log(`mail-catcher: SMTP on ${smtpPort}, Mailpit-style API on http://127.0.0.1:${httpPort}`));
