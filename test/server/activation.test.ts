import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { user as userSchema } from '../../contract/user';
import { findUserByEmail } from '../../server/db/repositories/users';
import { sha256Hex } from '../../server/services/identity/tokens';
import { activationCodeFrom } from './helpers/activation-mail';
import { API, bearer, login, post } from './helpers/fixtures';
import { recordingMailer } from './helpers/recording-mailer';
import { startSmtpPeer } from './helpers/smtp-peer';
import { createTestApp, dbKind, PUBLIC_URL, type TestApp } from './helpers/test-app';

const ACTIVATED = 'Your account is activated. You can now sign in.';
const INVALID = 'This activation link is not valid. Check that you opened the whole link from the e-mail.';
const USED = 'This activation link has already been used. Sign in with the password you chose.';
const EXPIRED = 'This activation link has expired (links work for 72 hours). You can ask for a new one.';

describe(`account activation (${dbKind})`, () => {
  let t: TestApp;
  const mailer = recordingMailer();
  let admin: Record<string, string>;

  beforeAll(async () => {
    // A small per-IP limit for the public resend, so its limit can be reached here.
    t = await createTestApp({ mailer, env: { RESET_RATE_LIMIT_PER_IP: '6' } });
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
  });
  afterAll(() => t.close());

  /** Registers a person as the demo admin and returns their id and the code of the mailed link. */
  const newPerson = async (email: string) => {
    const res = await post(t.app, '/auth/register', { name: `Person ${email}`, email, role: 'user' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const mail = mailer.sent.at(-1)!;
    expect(mail.to).toBe(email);
    return { id: res.json().data.id as string, code: activationCodeFrom(mail) };
  };
  const activate = (code: string, password = 'chosen-password-1') => post(t.app, '/auth/activate', { activation_code: code, new_password: password });
  const refusal = (res: { statusCode: number; json(): unknown; body: string }, status: number, detail: string, code?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = errorEnvelope.parse(res.json());
    expect(body.detail).toBe(detail);
    expect(body.code).toBe(code);
  };
  const backdate = (code: string, ms: number) =>
    t.db.updateTable('activations').set({ expires_at: new Date(Date.now() - ms).toISOString() }).where('code_hash', '=', sha256Hex(code)).execute();

  it('sets the password and verifies the person, who can then sign in; an unverified person cannot', async () => {
    const { code } = await newPerson('fresh@demo.local');
    const before = await post(t.app, '/auth/login', { email: 'fresh@demo.local', password: 'chosen-password-1' });
    expect(before.statusCode).toBe(401);

    const res = await activate(code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'success', data: { message: ACTIVATED }, message: ACTIVATED });

    const session = await login(t.app, 'fresh@demo.local', 'chosen-password-1');
    const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: bearer(session.access_token) });
    expect(successEnvelope(userSchema).parse(me.json()).data).toMatchObject({ email: 'fresh@demo.local', verified: true, status: 'active' });
  });

  it('works once: a second use answers "used" and changes nothing', async () => {
    const { code } = await newPerson('once@demo.local');
    expect((await activate(code, 'first-choice-pass')).statusCode).toBe(200);
    refusal(await activate(code, 'second-choice-pass'), 409, USED, 'activation_used');
    await login(t.app, 'once@demo.local', 'first-choice-pass');
    expect((await post(t.app, '/auth/login', { email: 'once@demo.local', password: 'second-choice-pass' })).statusCode).toBe(401);
  });

  it('lets exactly one of several parallel uses win', async () => {
    const { code } = await newPerson('race@demo.local');
    const results = await Promise.all(['race-pass-aaaa', 'race-pass-bbbb', 'race-pass-cccc'].map((p) => activate(code, p)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = ['race-pass-aaaa', 'race-pass-bbbb', 'race-pass-cccc'][results.findIndex((r) => r.statusCode === 200)]!;
    await login(t.app, 'race@demo.local', winner);
    for (const loser of results.filter((r) => r.statusCode !== 200)) expect(loser.json().code).toBe('activation_used');
  });

  it('refuses unknown and malformed codes and weak passwords with the contract sentences', async () => {
    refusal(await activate('x'.repeat(43)), 400, INVALID, 'activation_invalid');
    const missing = await post(t.app, '/auth/activate', { new_password: 'long-enough-1' });
    expect(missing.statusCode).toBe(400);
    expect(errorEnvelope.parse(missing.json()).detail).toBe(INVALID);
    const { code } = await newPerson('weak@demo.local');
    const weak = await activate(code, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ detail: 'Password must be at least 8 characters', fields: { new_password: 'Password must be at least 8 characters' } });
    // The refused attempt did not spend the code.
    expect((await activate(code)).statusCode).toBe(200);
  });

  it('expires after 72 hours', async () => {
    const { id, code } = await newPerson('late@demo.local');
    const [row] = await t.db.selectFrom('activations').selectAll().where('user_id', '=', id).execute();
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(72 * 3_600_000);
    // Moved to one millisecond past its expiry, the link no longer works.
    await backdate(code, 1);
    refusal(await activate(code), 409, EXPIRED, 'activation_expired');
    expect((await findUserByEmail(t.db, 'late@demo.local'))?.verified).toBe(false);
  });

  it('refuses an inactive person with a clear error', async () => {
    const { id, code } = await newPerson('inactive@demo.local');
    const off = await t.app.inject({ method: 'PATCH', url: `${API}/users/${id}/status?status=inactive`, headers: admin });
    expect(off.statusCode).toBe(200);
    refusal(await activate(code), 403, 'This account is inactive, so it cannot be activated. Please contact your administrator.', 'activation_inactive');
  });

  describe('public resend with an expired link (?activation_code=)', () => {
    const resend = (code: string) => post(t.app, `/auth/resend-activation?activation_code=${encodeURIComponent(code)}`);

    it("mails a fresh link to the person's own address; the new link works", async () => {
      const { code } = await newPerson('expired@demo.local');
      await backdate(code, 60_000);
      const sent = mailer.sent.length;
      const res = await resend(code);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('A new activation link is on its way to your e-mail address.');
      // Nothing about the person in the answer.
      expect(res.body).not.toContain('expired@demo.local');
      expect(mailer.sent.length).toBe(sent + 1);
      const mail = mailer.sent.at(-1)!;
      expect(mail.to).toBe('expired@demo.local');
      const fresh = activationCodeFrom(mail);
      expect(mail.text).toContain(`${PUBLIC_URL}/activate/${fresh}`);
      expect((await activate(fresh)).statusCode).toBe(200);
      // Once activated, the old expired link no longer gets anything sent.
      refusal(await resend(code), 400, INVALID, 'activation_invalid');
    });

    it('answers every other code like an unknown one and sends nothing', async () => {
      const live = await newPerson('live@demo.local');
      const used = await newPerson('used@demo.local');
      expect((await activate(used.code)).statusCode).toBe(200);
      const sent = mailer.sent.length;
      for (const code of [live.code, used.code, 'y'.repeat(43)]) refusal(await resend(code), 400, INVALID, 'activation_invalid');
      expect(mailer.sent.length).toBe(sent);
    });

    it('is limited per IP address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await resend(`unknown-code-${i}-${'z'.repeat(30)}`)).statusCode);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(6);
    });
  });
});

describe(`account activation through a real SMTP server (${dbKind})`, () => {
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

  it('mails the activation link, which activates the account', async () => {
    const admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const res = await post(t.app, '/auth/register', { name: 'Smtp Person', email: 'smtp.person@demo.local', role: 'user' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.activation_email_sent).toBe(true);
    const mail = await smtp.nextMail(1);
    expect(mail.to).toEqual(['smtp.person@demo.local']);
    expect(mail.raw).toMatch(/^Subject: Activate your Tanya account\r?$/m);
    expect(mail.raw).toContain('text/html');
    const decoded = mail.raw.replace(/=\r?\n/g, '');
    const match = new RegExp(`${PUBLIC_URL.replace('.', '\\.')}/activate/([A-Za-z0-9_-]{20,})`).exec(decoded);
    expect(match).not.toBeNull();
    const act = await post(t.app, '/auth/activate', { activation_code: match![1], new_password: 'smtp-chosen-pass' });
    expect(act.statusCode, act.body).toBe(200);
    const session = await login(t.app, 'smtp.person@demo.local', 'smtp-chosen-pass');
    expect(session.user).toMatchObject({ verified: true });
  });
});
