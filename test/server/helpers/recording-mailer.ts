import type { Mailer, MailMessage } from '../../../server/platform/mailer';

/** A mailer that keeps every mail it is asked to send. */
export function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: 'smtp',
    sent,
    async send(message) {
      sent.push(message);
      return {};
    },
    close() {},
  };
}

/** Polls until `check` holds (background mail sending). */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
