import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives; on `listenPort` when given (a port chosen earlier). */
export async function startSmtpPeer(listenPort = 0) {
  const received: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    received,
    /** STARTTLS is offered with a self-signed certificate; the client is told to skip it. */
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    async nextMail(count: number, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`no mail #${count} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received[count - 1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Quoted-printable soft line breaks and escapes undone (the server's mails are sent quoted-printable). */
export const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The reset token from a mail's raw source (quoted-printable undone). */
export function resetTokenFrom(raw: string): string {
  const decoded = decodeQuotedPrintable(raw);
  const match = /\/reset-password\/([A-Za-z0-9_-]{20,})/.exec(decoded);
  if (!match) throw new Error(`no reset link in mail:\n${raw}`);
  return match[1];
}
