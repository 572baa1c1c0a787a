import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { sha256Hex } from '../../server/services/identity/tokens';
import { activationCodeFrom } from './helpers/activation-mail';
import { bearer, login, post } from './helpers/fixtures';
import { recordingMailer, waitFor } from './helpers/recording-mailer';
import { resetTokenFrom } from './helpers/smtp-peer';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const VALID = 'This link is valid';
const INVALID_RESET = 'Invalid or expired reset token';
const INVALID = 'This activation link is not valid. Check that you opened the whole link from the e-mail.';
const USED = 'This activation link has already been used. Sign in with the password you chose.';
const EXPIRED = 'This activation link has expired (links work for 72 hours). You can ask for a new one.';
const INACTIVE = 'This account is inactive, so it cannot be activated. Please contact your administrator.';

/** The reset and activation screens ask whether their link works before a password is typed. */
describe(`checking a mailed link before a password is typed (${dbKind})`, () => {
  let t: TestApp;
  const mailer = recordingMailer();
  let admin: Record<string, string>;

  beforeAll(async () => {
    // A small per-address allowance, so a guesser's refusal is reached here.
    t = await createTestApp({ mailer, env: { LOGIN_RATE_LIMIT_PER_IP: '5' } });
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const checkReset = (token: unknown, ip = '10.1.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password/check', remoteAddress: ip, payload: { token } });
  const checkActivation = (code: unknown, ip = '10.2.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/activate/check', remoteAddress: ip, payload: { activation_code: code } });
  const refusal = (res: { statusCode: number; json(): unknown; body: string }, status: number, detail: string, code?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = errorEnvelope.parse(res.json());
    expect(body.detail).toBe(detail);
    expect(body.code).toBe(code);
  };
  const resetTokenFor = async (email: string) => {
    const before = mailer.sent.length;
    expect((await post(t.app, '/auth/request-reset-password', { email })).statusCode).toBe(200);
    await waitFor(() => mailer.sent.length > before);
    return resetTokenFrom(mailer.sent.at(-1)!.text);
  };
  const newPerson = async (email: string) => {
    const res = await post(t.app, '/auth/register', { name: `Person ${email}`, email, role: 'user' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    return { id: res.json().data.id as string, code: activationCodeFrom(mailer.sent.at(-1)!) };
  };

  it('says a reset link works while it can set a password, and answers an unknown, used or expired one alike', async () => {
    const token = await resetTokenFor('newhire@demo.local');
    const ok = await checkReset(token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ status: 'success', data: { message: VALID }, message: VALID });
    // Checking does not use the link up.
    expect((await checkReset(token)).statusCode).toBe(200);

    refusal(await checkReset('x'.repeat(43)), 400, INVALID_RESET);
    refusal(await checkReset(''), 400, INVALID_RESET);
    refusal(await checkReset(42), 400, INVALID_RESET);

    const expired = await resetTokenFor('newhire@demo.local');
    await t.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', sha256Hex(expired)).execute();
    refusal(await checkReset(expired), 400, INVALID_RESET);

    expect((await post(t.app, '/auth/reset-password', { token, new_password: 'newhire-new-pass' })).statusCode).toBe(200);
    refusal(await checkReset(token), 400, INVALID_RESET);
    // The answer names nobody.
    expect(JSON.stringify((await checkReset(token)).json())).not.toContain('newhire');
  });

  it('answers an activation link with the refusal activating would give, and nothing about the person', async () => {
    const fresh = await newPerson('check-fresh@demo.local');
    const ok = await checkActivation(fresh.code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).not.toContain('check-fresh');

    refusal(await checkActivation('y'.repeat(43)), 400, INVALID, 'activation_invalid');
    refusal(await checkActivation(''), 400, INVALID);

    const expiring = await newPerson('check-expired@demo.local');
    await t.db.updateTable('activations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('code_hash', '=', sha256Hex(expiring.code)).execute();
    refusal(await checkActivation(expiring.code), 409, EXPIRED, 'activation_expired');

    const inactive = await newPerson('check-inactive@demo.local');
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/users/${inactive.id}/status?status=inactive`, headers: admin })).statusCode).toBeLessThan(300);
    refusal(await checkActivation(inactive.code), 403, INACTIVE, 'activation_inactive');

    expect((await post(t.app, '/auth/activate', { activation_code: fresh.code, new_password: 'chosen-password-1' })).statusCode).toBe(200);
    refusal(await checkActivation(fresh.code), 409, USED, 'activation_used');
  });

  it('limits failed checks per address like sign-ins, while links that work are not held against it', async () => {
    const token = await resetTokenFor('admin@demo.local');
    const ip = '10.3.0.1';
    // Working links take their hit back: far more than the allowance of them pass.
    for (let i = 0; i < 8; i++) expect((await checkReset(token, ip)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await checkReset(`guess-${i}-${'z'.repeat(40)}`, ip)).statusCode).toBe(400);
    const refused = await checkActivation(`guess-${'z'.repeat(40)}`, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await checkReset(token, ip)).statusCode).toBe(429);
    // Another address is not refused.
    expect((await checkReset(token, '10.3.0.2')).statusCode).toBe(200);
  });
});
