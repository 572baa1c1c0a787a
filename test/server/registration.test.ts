import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { registerResponse } from '../../contract/registration';
import { findUserByEmail, type UserRecord } from '../../server/db/repositories/users';
import type { Mailer } from '../../server/platform/mailer';
import { sha256Hex } from '../../server/services/identity/tokens';
import { activationCodeFrom } from './helpers/activation-mail';
import { API, addUser, bearer, createOrganisation, demoClientId, login, post } from './helpers/fixtures';
import { recordingMailer } from './helpers/recording-mailer';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

type Org = Awaited<ReturnType<typeof createOrganisation>>;

const FORBIDDEN = 'You do not have permission to do this';
const SEATS = (n: number) => `This organisation's subscription allows ${n} active users. Deactivate someone or ask for a bigger subscription.`;
const NO_SUBSCRIPTION =
  'This organisation has no current subscription, so nobody can be added or activated. Ask for a subscription first.';

describe(`registering people (${dbKind})`, () => {
  let t: TestApp;
  const mailer = recordingMailer();
  let a: Org;
  let b: Org;
  let adminA: Record<string, string>;
  let adminB: Record<string, string>;
  let superuser: Record<string, string>;
  let plainUser: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ mailer });
    a = await createOrganisation(t.db, { name: 'Alpha Org' });
    b = await createOrganisation(t.db, { name: 'Beta Org' });
    await addUser(t.db, { client_id: a.client.id, name: 'Ada Admin', email: 'ada@alpha.test', role: 'admin' });
    await addUser(t.db, { client_id: b.client.id, name: 'Bea Admin', email: 'bea@beta.test', role: 'admin' });
    adminA = bearer((await login(t.app, 'ada@alpha.test')).access_token);
    adminB = bearer((await login(t.app, 'bea@beta.test')).access_token);
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    plainUser = bearer((await login(t.app, 'user@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const register = (payload: object, headers: Record<string, string>) => post(t.app, '/auth/register', payload, headers);
  const registered = async (payload: object, headers: Record<string, string>) => {
    const res = await register(payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(registerResponse).parse(res.json());
  };
  const refused = (res: LightMyRequestResponse, status: number, detail: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };
  const setStatus = (id: string, status: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'PATCH', url: `${API}/users/${id}/status?status=${status}`, headers });
  const stored = (email: string) => findUserByEmail(t.db, email) as Promise<UserRecord>;
  /** Sets the organisation's current subscription to `maxUsers` seats. */
  const seats = (org: Org, maxUsers: number) =>
    t.db.updateTable('subscriptions').set({ max_users: maxUsers }).where('client_id', '=', org.client.id).execute();

  describe('by role', () => {
    it('lets an admin register a user of their organisation: active, unverified, no password, no department', async () => {
      const sentBefore = mailer.sent.length;
      const body = await registered({ name: "  Nia <O'Neil> ", email: '  Nia.ONeil@Alpha.TEST ', role: 'user' }, adminA);
      expect(body.message).toBe('User registered successfully');
      expect(body.data).toMatchObject({
        name: "Nia <O'Neil>",
        email: 'nia.oneil@alpha.test',
        role: 'user',
        status: 'active',
        verified: false,
        department_id: null,
        unit_id: null,
        client_id: a.client.id,
        activation_email_sent: true,
      });
      expect(body.data).not.toHaveProperty('password_hash');
      const row = await stored('nia.oneil@alpha.test');
      expect(row).toMatchObject({ password_hash: null, verified: false, status: 'active', department_id: null });

      expect(mailer.sent.length).toBe(sentBefore + 1);
      const mail = mailer.sent.at(-1)!;
      expect(mail).toMatchObject({ to: 'nia.oneil@alpha.test', subject: 'Activate your Tanya account' });
      // The name is escaped in the HTML part, kept as typed in the text part.
      expect(mail.html).toContain('Hello Nia &#60;O&#39;Neil&#62;,');
      expect(mail.text).toContain("Hello Nia <O'Neil>,");
      expect(mail.text).toContain('expires in 72 hours');
      const code = activationCodeFrom(mail);
      // Only a hash of the code is stored, valid for 72 hours.
      const codes = await t.db.selectFrom('activations').selectAll().where('user_id', '=', row.id).execute();
      expect(codes).toHaveLength(1);
      expect(codes[0]!.code_hash).toBe(sha256Hex(code));
      expect(JSON.stringify(codes)).not.toContain(code);
      const lifetime = Date.parse(codes[0]!.expires_at) - Date.parse(codes[0]!.created_at);
      expect(lifetime).toBe(72 * 3_600_000);
    });

    it('accepts the admin naming their own organisation, refuses another organisation and the admin role', async () => {
      const own = await registered({ name: 'Own Org', email: 'own@alpha.test', role: 'user', client_id: a.client.id }, adminA);
      expect(own.data.client_id).toBe(a.client.id);
      refused(await register({ name: 'Elsewhere', email: 'elsewhere@beta.test', role: 'user', client_id: b.client.id }, adminA), 403,
        'You can only register people in your own organisation');
      refused(await register({ name: 'Boss', email: 'boss@alpha.test', role: 'admin' }, adminA), 403, 'Admins can only create regular users');
      expect(await findUserByEmail(t.db, 'elsewhere@beta.test')).toBeUndefined();
      expect(await findUserByEmail(t.db, 'boss@alpha.test')).toBeUndefined();
    });

    it("lets the superuser register an organisation's admin only, with an existing organisation", async () => {
      const body = await registered({ name: 'Beta Second Admin', email: 'second@beta.test', role: 'admin', client_id: b.client.id }, superuser);
      expect(body.data).toMatchObject({ role: 'admin', client_id: b.client.id, verified: false });
      refused(await register({ name: 'Plain', email: 'plain@beta.test', role: 'user', client_id: b.client.id }, superuser), 403,
        'Superusers can only create admin users');
      const missing = await register({ name: 'Nowhere', email: 'nowhere@beta.test', role: 'admin' }, superuser);
      refused(missing, 400, 'Choose the organisation (client_id) the new admin belongs to');
      expect(missing.json().fields).toEqual({ client_id: 'Choose the organisation (client_id) the new admin belongs to' });
      refused(await register({ name: 'Ghost', email: 'ghost@beta.test', role: 'admin', client_id: 'no-such-org' }, superuser), 404,
        'Organisation not found');
    });

    it('refuses plain users and anonymous callers', async () => {
      refused(await register({ name: 'Sneaky', email: 'sneaky@demo.local', role: 'user' }, plainUser), 403, FORBIDDEN);
      expect((await register({ name: 'Sneaky', email: 'sneaky@demo.local', role: 'user' }, {})).statusCode).toBe(401);
      expect(await findUserByEmail(t.db, 'sneaky@demo.local')).toBeUndefined();
    });

    it('validates name and e-mail with the contract sentences', async () => {
      refused(await register({ name: '   ', email: 'blank@alpha.test', role: 'user' }, adminA), 400, 'Full name is required');
      refused(await register({ email: 'blank@alpha.test', role: 'user' }, adminA), 400, 'Full name is required');
      refused(await register({ name: 'No Mail', role: 'user' }, adminA), 400, 'Email is required');
      refused(await register({ name: 'Bad Mail', email: 'not-an-address', role: 'user' }, adminA), 400, 'Enter a valid email address');
      refused(await register({ name: 'Bad Role', email: 'role@alpha.test', role: 'superuser' }, adminA), 400, 'role must be user or admin');
    });

    it('refuses an e-mail address already taken, whatever its case, in any organisation (409)', async () => {
      refused(await register({ name: 'Copy', email: ' ADA@alpha.test', role: 'user' }, adminA), 409, 'A user with this email address already exists');
      refused(await register({ name: 'Copy', email: 'user@demo.local', role: 'user' }, adminA), 409, 'A user with this email address already exists');
      refused(await register({ name: 'Copy', email: 'bea@beta.test', role: 'admin', client_id: a.client.id }, superuser), 409,
        'A user with this email address already exists');
    });
  });

  describe("the organisation's subscription", () => {
    it('refuses a registration past max_users, and a reactivation past it (status switch)', async () => {
      const c = await createOrganisation(t.db, { name: 'Gamma Org' });
      const cAdmin = await addUser(t.db, { client_id: c.client.id, name: 'Gus Admin', email: 'gus@gamma.test', role: 'admin' });
      const adminC = bearer((await login(t.app, 'gus@gamma.test')).access_token);
      await seats(c, 2);
      const first = await registered({ name: 'Gamma One', email: 'one@gamma.test', role: 'user' }, adminC);
      refused(await register({ name: 'Gamma Two', email: 'two@gamma.test', role: 'user' }, adminC), 409, SEATS(2));
      refused(await register({ name: 'Gamma Admin Two', email: 'admin2@gamma.test', role: 'admin', client_id: c.client.id }, superuser), 409, SEATS(2));
      expect(await findUserByEmail(t.db, 'two@gamma.test')).toBeUndefined();

      // Deactivating someone frees the seat; taking it makes reactivation refused.
      expect((await setStatus(first.data.id, 'inactive', adminC)).statusCode).toBe(200);
      const second = await registered({ name: 'Gamma Two', email: 'two@gamma.test', role: 'user' }, adminC);
      const back = await setStatus(first.data.id, 'active', adminC);
      refused(back, 409, SEATS(2));
      expect((await stored('one@gamma.test')).status).toBe('inactive');
      // Switching an active person to active again takes no second seat.
      expect((await setStatus(second.data.id, 'active', adminC)).statusCode).toBe(200);
      expect((await setStatus(second.data.id, 'inactive', adminC)).statusCode).toBe(200);
      expect((await setStatus(first.data.id, 'active', adminC)).statusCode).toBe(200);
      expect(cAdmin.status).toBe('active');
    });

    it('lets exactly one of two parallel registrations take the last seat', async () => {
      const d = await createOrganisation(t.db, { name: 'Delta Org' });
      await addUser(t.db, { client_id: d.client.id, name: 'Dee Admin', email: 'dee@delta.test', role: 'admin' });
      const adminD = bearer((await login(t.app, 'dee@delta.test')).access_token);
      await seats(d, 2);
      const results = await Promise.all(
        ['p1', 'p2', 'p3'].map((n) => register({ name: `Parallel ${n}`, email: `${n}@delta.test`, role: 'user' }, adminD)),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      const { n } = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('client_id', '=', d.client.id)
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(2);
    });

    it('refuses registrations and reactivations while the organisation has no current subscription', async () => {
      for (const state of ['expired', 'upcoming', 'none'] as const) {
        const org = await createOrganisation(t.db, { name: `Org ${state}`, subscription: state });
        refused(await register({ name: 'Admin', email: `admin@${state}.test`, role: 'admin', client_id: org.client.id }, superuser), 409, NO_SUBSCRIPTION);
      }
      const e = await createOrganisation(t.db, { name: 'Epsilon Org' });
      await addUser(t.db, { client_id: e.client.id, name: 'Eli Admin', email: 'eli@epsilon.test', role: 'admin' });
      const resting = await addUser(t.db, { client_id: e.client.id, name: 'Resting', email: 'resting@epsilon.test', status: 'inactive' });
      const adminE = bearer((await login(t.app, 'eli@epsilon.test')).access_token);
      await t.db.updateTable('subscriptions').set({ start_date: new Date(Date.now() + 86_400_000).toISOString() }).where('client_id', '=', e.client.id).execute();
      refused(await setStatus(resting.id, 'active', adminE), 409, NO_SUBSCRIPTION);
    });
  });

  describe('resending the activation e-mail (?user_id=)', () => {
    it('sends a new link to an unverified person of the own organisation and ends the earlier one', async () => {
      const body = await registered({ name: 'Resend Me', email: 'resend@alpha.test', role: 'user' }, adminA);
      const firstCode = activationCodeFrom(mailer.sent.at(-1)!);
      const res = await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, adminA);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'success', message: 'Verification email sent successfully' });
      const mail = mailer.sent.at(-1)!;
      expect(mail.to).toBe('resend@alpha.test');
      const secondCode = activationCodeFrom(mail);
      expect(secondCode).not.toBe(firstCode);

      const old = await post(t.app, '/auth/activate', { activation_code: firstCode, new_password: 'resend-me-pass' });
      expect(old.statusCode).toBe(409);
      expect(old.json()).toMatchObject({ code: 'activation_expired' });
      expect((await post(t.app, '/auth/activate', { activation_code: secondCode, new_password: 'resend-me-pass' })).statusCode).toBe(200);

      refused(await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, adminA), 409,
        'This user has already activated their account');
    });

    it("answers 404 for another organisation's person, 403 for plain users, 401 without a session", async () => {
      const body = await registered({ name: 'Beta Person', email: 'person@beta.test', role: 'user' }, adminB);
      const sent = mailer.sent.length;
      refused(await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, adminA), 404, 'User not found');
      refused(await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, plainUser), 403, FORBIDDEN);
      expect((await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`)).statusCode).toBe(401);
      expect(mailer.sent.length).toBe(sent);
      // The superuser may resend for anybody.
      expect((await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, superuser)).statusCode).toBe(200);
      expect(mailer.sent.at(-1)!.to).toBe('person@beta.test');
    });

    it('refuses an inactive person (409) and asks for exactly one of user_id and activation_code', async () => {
      const body = await registered({ name: 'Paused', email: 'paused@alpha.test', role: 'user' }, adminA);
      expect((await setStatus(body.data.id, 'inactive', adminA)).statusCode).toBe(200);
      refused(await post(t.app, `/auth/resend-activation?user_id=${body.data.id}`, undefined, adminA), 409,
        'This user is inactive: activate them first, then resend the verification e-mail.');
      refused(await post(t.app, '/auth/resend-activation', undefined, adminA), 400, 'Give either user_id or activation_code');
      refused(await post(t.app, `/auth/resend-activation?user_id=${body.data.id}&activation_code=abc`, undefined, adminA), 400,
        'Give either user_id or activation_code');
    });
  });

  it('keeps the person when the activation e-mail cannot be sent, and says so', async () => {
    const broken: Mailer = {
      kind: 'smtp',
      send: () => Promise.reject(new Error('connection refused')),
      close() {},
    };
    const other = await createTestApp({ mailer: broken });
    try {
      const admin = bearer((await login(other.app, 'admin@demo.local')).access_token);
      const res = await post(other.app, '/auth/register', { name: 'Unmailed', email: 'unmailed@demo.local', role: 'user' }, admin);
      expect(res.statusCode, res.body).toBe(200);
      const body = successEnvelope(registerResponse).parse(res.json());
      expect(body.data).toMatchObject({ email: 'unmailed@demo.local', activation_email_sent: false });
      expect(body.message).toBe(
        'User registered, but the activation e-mail could not be sent. Use "Resend verification" on the Users page to try again.',
      );
      const person = await findUserByEmail(other.db, 'unmailed@demo.local');
      expect(person?.client_id).toBe(await demoClientId(other.db));
      refused(await post(other.app, `/auth/resend-activation?user_id=${person!.id}`, undefined, admin), 503, 'Failed to send verification email');
    } finally {
      await other.close();
    }
  });
});
