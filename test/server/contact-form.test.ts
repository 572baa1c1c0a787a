import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactFormSettings, contactLeadsPage } from '../../contract/contact-form';
import {
  CONTACT_NOT_CONFIGURED,
  CONTACT_SENT,
  RECAPTCHA_FAILED,
  RECAPTCHA_REQUIRED,
  STAFF_EMAIL_REGISTERED,
} from '../../contract/contact-form-constants';
import { errorEnvelope } from '../../contract/envelope';
import { FIELD_REQUIRED, INVALID_EMAIL, INVALID_PHONE, NAME_REQUIRED, PHONE_OR_EMAIL_REQUIRED } from '../../shared/contact-form-rules';
import { RECAPTCHA_UNREACHABLE } from '../../server/services/contact/contact-form';
import { startRecaptchaPeer, type RecaptchaPeer } from '../e2e/helpers/recaptcha-peer';
import { API, bearer, login } from './helpers/fixtures';
import { startSmtpPeer } from './helpers/smtp-peer';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const SECRET = 'server-test-recaptcha-secret';
const valid = { name: 'Aminah Lead', phone: '012-345 6789', email: 'Aminah@Buyer.example', hearAboutUs: 'search', recaptcha_token: 'pass-1' };

describe(`the landing page's contact form (${dbKind})`, () => {
  let t: TestApp;
  let peer: RecaptchaPeer;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  const logLines: string[] = [];

  beforeAll(async () => {
    [peer, smtp] = await Promise.all([startRecaptchaPeer({ secret: SECRET }), startSmtpPeer()]);
    t = await createTestApp({
      env: {
        RECAPTCHA_SITE_KEY: 'site-key-1',
        RECAPTCHA_SECRET: SECRET,
        RECAPTCHA_VERIFY_URL: peer.verifyUrl,
        RECAPTCHA_SCRIPT_URL: peer.scriptUrl,
        SALES_EMAIL: 'sales@tanya.test',
        SMTP_URL: smtp.url,
        STAFF_EMAIL_DOMAIN: 'tanya.my',
        CONTACT_RATE_LIMIT_PER_IP: '1000',
      },
      logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
    await smtp?.close();
  });

  const send = (body: object, app = t) => app.app.inject({ method: 'POST', url: `${API}/feedbacks/contact-form`, payload: body });
  const refused = (res: LightMyRequestResponse, status: number, detail: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };

  it('tells the browser the site key, the script and the staff domain, never the secret', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/feedbacks/contact-form/settings` });
    expect(res.statusCode).toBe(200);
    expect(contactFormSettings.parse(res.json().data)).toEqual({ recaptcha_site_key: 'site-key-1', recaptcha_script_url: peer.scriptUrl, staff_email_domain: 'tanya.my' });
    expect(res.body).not.toContain(SECRET);
  });

  it.each([
    ['0123456789', true],
    ['012-345 6789', true],
    ['(012) 345-6789', true],
    ['+60123456789', true],
    ['60 11 2345 6789', true],
    ['03-1234 5678', true],
    ['+60 3 1234 5678', true],
    ['082 123456', true],
    ['0212345678', false],
    ['012345', false],
    ['+6512345678', false],
    ['phone please', false],
    ['+60 12 3456 78901', false],
  ])('a phone %j is %s', async (phone, ok) => {
    const res = await send({ ...valid, email: '', phone });
    if (ok) expect(res.statusCode, res.body).toBe(200);
    else refused(res, 400, INVALID_PHONE);
  });

  it('says what is missing, in the sentences of the form', async () => {
    refused(await send({ ...valid, name: '  ' }), 400, NAME_REQUIRED);
    const neither = await send({ ...valid, phone: '', email: '' });
    refused(neither, 400, PHONE_OR_EMAIL_REQUIRED);
    expect(neither.json().fields).toMatchObject({ phone: PHONE_OR_EMAIL_REQUIRED, email: PHONE_OR_EMAIL_REQUIRED });
    refused(await send({ ...valid, email: 'not-an-address', phone: '' }), 400, INVALID_EMAIL);
    refused(await send({ ...valid, hearAboutUs: '' }), 400, FIELD_REQUIRED);
    refused(await send({ ...valid, hearAboutUs: 'a billboard' }), 400, FIELD_REQUIRED);
    refused(await send({ ...valid, recaptcha_token: '' }), 400, RECAPTCHA_REQUIRED);
    refused(await send({ ...valid, email: 'someone@tanya.my' }), 400, STAFF_EMAIL_REGISTERED);
    refused(await send({ ...valid, email: 'someone@Sales.Tanya.my' }), 400, STAFF_EMAIL_REGISTERED);
    expect((await send({ ...valid, email: 'someone@nottanya.my' })).statusCode).toBe(200);
  });

  it('verifies the token with the secret and the address, and refuses one the verifier refuses', async () => {
    const before = peer.checked.length;
    refused(await send({ ...valid, recaptcha_token: 'fail-1' }), 400, RECAPTCHA_FAILED);
    expect(peer.checked.slice(before)).toEqual([{ response: 'fail-1', remoteip: '127.0.0.1' }]);
  });

  it('stores the lead and mails the sales address', async () => {
    const res = await send({ ...valid, name: 'Mail <b>Lead</b>' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.message).toBe(CONTACT_SENT);
    // Quoted-printable: soft line breaks and '=' written as =3D. The earlier tests' leads are mailed too (jobs).
    const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    await expect.poll(() => smtp.received.some((m) => decoded(m.raw).includes('Mail &#60;b&#62;Lead')), { timeout: 10_000 }).toBe(true);
    const mail = smtp.received.find((m) => decoded(m.raw).includes('Mail &#60;b&#62;Lead'))!;
    expect(mail.to).toEqual(['sales@tanya.test']);
    const body = decoded(mail.raw);
    expect(body).toContain('Mail &#60;b&#62;Lead&#60;/b&#62;');
    expect(body).not.toContain('<b>Lead</b></td>');
    expect(body).toContain('0123456789');

    const superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    const leads = await t.app.inject({ method: 'GET', url: `${API}/feedbacks/contact-leads`, headers: superuser });
    expect(leads.statusCode).toBe(200);
    const page = contactLeadsPage.parse(leads.json().data);
    expect(page.leads[0]).toMatchObject({ name: 'Mail <b>Lead</b>', phone: '0123456789', email: 'aminah@buyer.example', hearAboutUs: 'search' });
    expect(page.total).toBeGreaterThan(1);
    expect(logLines.join('\n')).not.toContain(SECRET);
    expect(logLines.join('\n')).not.toContain(valid.recaptcha_token);
  });

  it('shows the leads to the superuser only', async () => {
    const admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    expect((await t.app.inject({ method: 'GET', url: `${API}/feedbacks/contact-leads`, headers: admin })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${API}/feedbacks/contact-leads` })).statusCode).toBe(401);
  });
});

describe(`the contact form's refusals without a verifier and past the limit (${dbKind})`, () => {
  it('refuses every lead without a secret (never takes one unverified), and when the verifier is down', async () => {
    const bare = await createTestApp();
    try {
      refusedWith(await bare.app.inject({ method: 'POST', url: `${API}/feedbacks/contact-form`, payload: valid }), 503, CONTACT_NOT_CONFIGURED);
      expect(await bare.db.selectFrom('contact_leads').selectAll().execute()).toEqual([]);
      const settings = await bare.app.inject({ method: 'GET', url: `${API}/feedbacks/contact-form/settings` });
      expect(settings.json().data.recaptcha_site_key).toBeNull();
    } finally {
      await bare.close();
    }
    const down = await createTestApp({ env: { RECAPTCHA_SECRET: SECRET, RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/siteverify' } });
    try {
      refusedWith(await down.app.inject({ method: 'POST', url: `${API}/feedbacks/contact-form`, payload: valid }), 503, RECAPTCHA_UNREACHABLE);
    } finally {
      await down.close();
    }
  });

  it("refuses every lead while the verifier refuses our secret (the operator's mistake: 503, not the person's)", async () => {
    const peer = await startRecaptchaPeer({ secret: SECRET });
    const t = await createTestApp({ env: { RECAPTCHA_SECRET: 'not-the-secret', RECAPTCHA_VERIFY_URL: peer.verifyUrl } });
    try {
      refusedWith(await t.app.inject({ method: 'POST', url: `${API}/feedbacks/contact-form`, payload: valid }), 503, CONTACT_NOT_CONFIGURED);
      expect(peer.checked).toHaveLength(1);
      expect(await t.db.selectFrom('contact_leads').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
      await peer.close();
    }
  });

  it('limits submissions per address', async () => {
    const peer = await startRecaptchaPeer({ secret: SECRET });
    const t = await createTestApp({ env: { RECAPTCHA_SECRET: SECRET, RECAPTCHA_VERIFY_URL: peer.verifyUrl, CONTACT_RATE_LIMIT_PER_IP: '2' } });
    try {
      const post = (body: object = valid) => t.app.inject({ method: 'POST', url: `${API}/feedbacks/contact-form`, payload: body });
      // A form the rules refuse costs nothing (the verifier is not asked); a verified one counts.
      expect((await post({ ...valid, name: '' })).statusCode).toBe(400);
      expect((await post()).statusCode).toBe(200);
      expect((await post()).statusCode).toBe(200);
      const third = await post();
      expect(third.statusCode).toBe(429);
      expect(third.json().detail).toMatch(/^Too many submissions from your network\. Please try again in /);
      expect(await t.db.selectFrom('contact_leads').selectAll().execute()).toHaveLength(2);
    } finally {
      await t.close();
      await peer.close();
    }
  });
});

function refusedWith(res: LightMyRequestResponse, status: number, detail: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
}
