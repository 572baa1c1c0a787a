import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorDetail, login, post } from './helpers/fixtures';
import { resetTokenFrom, startSmtpPeer } from './helpers/smtp-peer';
import { createTestApp, DEMO_PASSWORD, PUBLIC_URL, type TestApp } from './helpers/test-app';

const SENT = 'If an account exists for that email, password reset instructions have been sent.';

describe('password reset through a real SMTP server', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Tanya Test <tanya@tanya.test>' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails a single-use link; the new password works, old sessions and the token are dead', async () => {
    const before = await login(t.app, 'user@demo.local');
    const res = await post(t.app, '/auth/request-reset-password', { email: 'User@Demo.local' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', data: { message: SENT } });

    const mail = await smtp.nextMail(1);
    expect(mail.to).toEqual(['user@demo.local']);
    expect(mail.raw).toMatch(/^Subject: Reset your Tanya password\r?$/m);
    expect(mail.raw).toMatch(/^From: Tanya Test <tanya@tanya\.test>\r?$/m);
    expect(mail.raw).toContain('text/html');
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain(`${PUBLIC_URL}/reset-password/`);
    const token = resetTokenFrom(mail.raw);

    const reset = await post(t.app, '/auth/reset-password', { token, new_password: 'a-brand-new-secret' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ status: 'success', message: 'Your password has been successfully updated' });

    expect((await post(t.app, '/auth/login', { email: 'user@demo.local', password: DEMO_PASSWORD })).statusCode).toBe(401);
    await login(t.app, 'user@demo.local', 'a-brand-new-secret');
    // Sessions from before the reset are revoked.
    const oldRefresh = await post(t.app, '/auth/refresh', undefined, { authorization: `Bearer ${before.refresh_token}` });
    expect(oldRefresh.statusCode).toBe(401);

    const again = await post(t.app, '/auth/reset-password', { token, new_password: 'yet-another-secret' });
    expect(again.statusCode).toBe(400);
    expect(errorDetail(again)).toBe('Invalid or expired reset token');
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const count = smtp.received.length;
    const res = await post(t.app, '/auth/request-reset-password', { email: 'nobody@demo.local' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', data: { message: SENT }, message: SENT });
    // A known address afterwards: its mail must be the only new one.
    await post(t.app, '/auth/request-reset-password', { email: 'admin@demo.local' });
    const next = await smtp.nextMail(count + 1);
    expect(next.to).toEqual(['admin@demo.local']);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.length).toBe(count + 1);
  });
});
