import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginResponse } from '../../contract/auth';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { updateUserStatus } from '../../server/db/repositories/users';
import { addUser, createOrganisation, errorDetail, post } from './helpers/fixtures';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

const SUBSCRIPTION_INACTIVE =
  'Your subscription is not active. Please contact your administrator to renew your subscription.';

describe('POST /auth/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns tokens and the user in the contract shape', async () => {
    const res = await post(t.app, '/auth/login', { email: 'user@demo.local', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = successEnvelope(loginResponse).parse(res.json());
    expect(body.data.user).toMatchObject({
      email: 'user@demo.local',
      name: 'Nur User',
      role: 'user',
      status: 'active',
      verified: true,
      package_name: 'premium',
    });
    expect(body.data.user.department_id).toEqual(expect.any(String));
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('$argon2');
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await post(t.app, '/auth/login', { email: '  ADMIN@Demo.Local ', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.email).toBe('admin@demo.local');
  });

  it('lets the platform superuser in without an organisation, with the free package', async () => {
    const res = await post(t.app, '/auth/login', { email: 'super@demo.local', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ role: 'superuser', client_id: null, package_name: 'free' });
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const wrong = await post(t.app, '/auth/login', { email: 'user@demo.local', password: 'not-the-password' });
    const unknown = await post(t.app, '/auth/login', { email: 'nobody@demo.local', password: 'not-the-password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Incorrect email or password');
    }
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses an inactive user with 403, only after the password is right', async () => {
    const user = await addUser(t.db, { client_id: null, name: 'Ina Inactive', email: 'inactive@demo.local', role: 'superuser' });
    await updateUserStatus(t.db, user.id, 'inactive');
    const wrong = await post(t.app, '/auth/login', { email: 'inactive@demo.local', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    const res = await post(t.app, '/auth/login', { email: 'inactive@demo.local', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(errorDetail(res)).toBe('Your account is inactive. Please contact your administrator.');
  });

  it('refuses an unverified user with 403', async () => {
    const { client } = await createOrganisation(t.db, { name: 'Unverified Org' });
    await addUser(t.db, { client_id: client.id, name: 'Uma', email: 'unverified@demo.local', verified: false });
    const res = await post(t.app, '/auth/login', { email: 'unverified@demo.local', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(errorDetail(res)).toBe(
      'Your account is not activated yet. Please check your email for the activation link.',
    );
  });

  it.each([
    ['an expired subscription', { subscription: 'expired' as const }],
    ['a subscription that has not started', { subscription: 'upcoming' as const }],
    ['no subscription', { subscription: 'none' as const }],
    ['an inactive organisation', { status: 'inactive' as const }],
  ])('refuses a user of an organisation with %s (403 subscription_expired)', async (label, opts) => {
    const email = `${label.replace(/\W+/g, '-')}@elsewhere.test`.toLowerCase();
    const { client } = await createOrganisation(t.db, { name: label, ...opts });
    await addUser(t.db, { client_id: client.id, name: 'Someone', email, role: 'admin' });
    const res = await post(t.app, '/auth/login', { email, password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 'error', detail: SUBSCRIPTION_INACTIVE, code: 'subscription_expired' });
  });

  it('answers 400 with the contract message when the email is missing', async () => {
    const res = await post(t.app, '/auth/login', { password: 'x' });
    expect(res.statusCode).toBe(400);
    const body = errorEnvelope.parse(res.json());
    expect(body.detail).toBe('Email is required');
    expect(body.fields).toMatchObject({ email: 'Email is required' });
  });

  it('answers 400 for an empty body and for an invalid email', async () => {
    const empty = await post(t.app, '/auth/login');
    expect(empty.statusCode).toBe(400);
    expect(errorDetail(empty)).toBe('Email is required');
    const invalid = await post(t.app, '/auth/login', { email: 'not-an-email', password: 'x' });
    expect(invalid.statusCode).toBe(400);
    expect(errorDetail(invalid)).toBe('Enter a valid email address');
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "user@demo.local", "password": ',
    });
    expect(res.statusCode).toBe(400);
    expect(errorEnvelope.parse(res.json()).detail).toBe('Malformed JSON body');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().status).toBe('error');
  });
});
