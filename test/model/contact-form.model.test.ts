import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromPromise, waitFor, type EventFrom, type SnapshotFrom } from 'xstate';
import type { ContactFormRequest, ContactFormSettings } from '../../contract/contact-form';
import {
  CONTACT_BAD_REQUEST,
  CONTACT_NETWORK_ERROR,
  CONTACT_SENT,
  CONTACT_SERVER_ERROR,
  RECAPTCHA_EXPIRED,
  RECAPTCHA_FAILED,
  RECAPTCHA_LOAD_FAILED,
  RECAPTCHA_REQUIRED,
} from '../../contract/contact-form-constants';
import {
  canOfferSubmit,
  contactFormMachine,
  contactRequestOf,
  emptyContactFields,
  isStaffAddress,
  submissionFailure,
} from '../../machines/contact-form.machine';
import { loadFailure } from '../../machines/load-failure';
import { contactFieldErrors, PHONE_OR_EMAIL_REQUIRED } from '../../shared/contact-form-rules';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof contactFormMachine>;
type Ev = EventFrom<typeof contactFormMachine>;

const settings: ContactFormSettings = { recaptcha_site_key: 'site-key', recaptcha_script_url: 'https://r.test/api.js', staff_email_domain: 'tanya.my' };
const noKey: ContactFormSettings = { ...settings, recaptcha_site_key: null };
const VALID = { name: 'Aminah', phone: '012-345 6789', email: '', hearAboutUs: 'search' };
const STAFF = { email: 'amir@tanya.my' };
const failure = (status: number, detail: string | null) => Object.assign(loadFailure(`HTTP ${status}`, detail), { status });
const refused = failure(400, 'reCAPTCHA verification failed. Please try again.');
const crashed = failure(500, 'Internal Server Error');
const dropped = failure(0, null);

const calls = { settings: 0, submits: [] as Array<Required<ContactFormRequest>> };
let prev: Snap | null = null;
let submitsBefore = 0;

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as unknown as Ev;
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error, actorId: id }) as unknown as Ev;

function eventsFor(s: Snap): Ev[] {
  const anywhere: Ev[] = [{ type: 'contact.open' }, { type: 'contact.close' }, { type: 'contact.submit' }];
  if (s.matches('loading')) return [...anywhere, done('fetchSettings', settings), done('fetchSettings', noKey), failed('fetchSettings', dropped)];
  if (s.matches('editing')) {
    return [
      ...anywhere,
      { type: 'contact.change', fields: VALID },
      { type: 'contact.change', fields: STAFF },
      { type: 'contact.change', fields: { phone: '' } },
      { type: 'recaptcha.verified', token: 'pass-1' },
      { type: 'recaptcha.expired' },
      { type: 'recaptcha.failed' },
      { type: 'recaptcha.unavailable' },
    ];
  }
  if (s.matches('submitting')) return [...anywhere, done('submit', { message: 'Thanks!' }), done('submit', {}), failed('submit', refused), failed('submit', crashed), failed('submit', dropped)];
  return anywhere;
}

const check = (fn: (s: Snap, e: (Ev & { error?: unknown; output?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  expect(s.hasTag('busy')).toBe(s.matches('loading') || s.matches('submitting'));
  fn(s, e as (Ev & { error?: unknown; output?: unknown }) | null, p);
  prev = s;
  submitsBefore = calls.submits.length;
};

runModelTest({
  name: 'contact-form',
  machine: contactFormMachine,
  testMachine: () =>
    contactFormMachine.provide({
      actors: {
        fetchSettings: pendingActor<ContactFormSettings, void>(() => calls.settings++),
        submit: pendingActor<{ message?: string }, Required<ContactFormRequest>>((i) => calls.submits.push(i)),
      },
    }),
  onActor: () => {
    calls.settings = 0;
    calls.submits = [];
    prev = null;
    submitsBefore = 0;
  },
  inputs: [undefined],
  events: eventsFor,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.settings?.recaptcha_site_key ?? s.context.settings === null ? 'none' : 'nokey',
      Object.keys(contactFieldErrors(s.context.fields)).length === 0,
      isStaffAddress(s.context),
      s.context.token !== null,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.settings === null, s.context.token !== null]),
  edgeKeys: true,
  checks: {
    closed: check((s, e) => {
      // Every close empties the form and its sentences (spec section 4).
      expect(s.context).toMatchObject({ fields: emptyContactFields, fieldErrors: {}, token: null, recaptchaError: null, error: null, sentMessage: null });
      if (e?.type === 'contact.close') expect(s.context.settings).toEqual(prev?.context.settings);
    }),
    loading: check(() => expect(calls.settings).toBeGreaterThan(0)),
    editing: check((s, e, p) => {
      if (e?.type === 'xstate.error.actor.fetchSettings') expect(s.context.recaptchaError).toBe(RECAPTCHA_LOAD_FAILED);
      // A staff address has no widget: a token reported for one is not kept.
      if (e?.type === 'recaptcha.verified' && !isStaffAddress(s.context)) expect(s.context).toMatchObject({ token: 'pass-1', recaptchaError: null });
      if (e?.type === 'recaptcha.expired') expect(s.context).toMatchObject({ token: null, recaptchaError: RECAPTCHA_EXPIRED });
      if (e?.type === 'recaptcha.failed') expect(s.context).toMatchObject({ token: null, recaptchaError: RECAPTCHA_FAILED });
      if (e?.type === 'recaptcha.unavailable') expect(s.context).toMatchObject({ token: null, recaptchaError: RECAPTCHA_LOAD_FAILED });
      if (e?.type === 'contact.submit') {
        // Refused in the form: nothing sent; each wrong field has its sentence, a missing token the widget's.
        expect(calls.submits.length).toBe(submitsBefore);
        expect(s.context.fieldErrors).toEqual(contactFieldErrors(s.context.fields));
        if (canOfferSubmit(s.context) && s.context.token === null) expect(s.context.recaptchaError).not.toBeNull();
        if (canOfferSubmit(s.context) && s.context.token === null && p?.context.recaptchaError === null) expect(s.context.recaptchaError).toBe(RECAPTCHA_REQUIRED);
      }
      if (e?.type === 'xstate.error.actor.submit') {
        expect(s.context.error).toBe(e.error === refused ? refused.serverDetail : e.error === crashed ? CONTACT_SERVER_ERROR : CONTACT_NETWORK_ERROR);
        // The widget is reset: its token is gone and the view is told to reset it.
        expect(s.context.token).toBeNull();
        expect(s.context.recaptchaResets).toBe((p?.context.recaptchaResets ?? 0) + 1);
        expect(s.context.fields).toEqual(p?.context.fields);
      }
      if (isStaffAddress(s.context)) expect(s.context.token).toBeNull();
      if (e?.type === 'contact.change') {
        for (const field of Object.keys((e as { fields: object }).fields)) expect(s.context.fieldErrors).not.toHaveProperty(field);
      }
    }),
    submitting: check((s) => {
      expect(calls.submits.at(-1)).toEqual(contactRequestOf(s.context));
      expect(canOfferSubmit(s.context)).toBe(true);
      expect(s.context.token).not.toBeNull();
    }),
    sent: check((s, e) => {
      if (e?.type === 'xstate.done.actor.submit') expect(s.context.sentMessage).toBe((e.output as { message?: string }).message ?? CONTACT_SENT);
    }),
  },
});

describe('contact form (examples)', () => {
  it('says a failed submission as the spec does, by status', () => {
    expect(submissionFailure(failure(400, 'Name field is required'))).toBe('Name field is required');
    expect(submissionFailure(failure(400, null))).toBe(CONTACT_BAD_REQUEST);
    expect(submissionFailure(failure(500, 'boom'))).toBe(CONTACT_SERVER_ERROR);
    expect(submissionFailure(failure(503, 'not configured'))).toBe(CONTACT_NETWORK_ERROR);
    expect(submissionFailure(dropped)).toBe(CONTACT_NETWORK_ERROR);
  });

  it('offers Submit only with a site key and not to staff', () => {
    expect(canOfferSubmit({ fields: { ...emptyContactFields, email: 'a@b.co' }, settings })).toBe(true);
    expect(canOfferSubmit({ fields: emptyContactFields, settings: noKey })).toBe(false);
    expect(canOfferSubmit({ fields: { ...emptyContactFields, email: 'x@tanya.my' }, settings })).toBe(false);
    expect(canOfferSubmit({ fields: emptyContactFields, settings: null })).toBe(false);
  });

  it('clears the phone-or-e-mail sentence from both fields when either is typed', () => {
    const actor = createActor(contactFormMachine.provide({ actors: { fetchSettings: fromPromise(async () => settings) } })).start();
    actor.send({ type: 'contact.open' });
    return waitFor(actor, (s) => s.matches('editing')).then(() => {
      actor.send({ type: 'contact.submit' });
      expect(actor.getSnapshot().context.fieldErrors).toMatchObject({ phone: PHONE_OR_EMAIL_REQUIRED, email: PHONE_OR_EMAIL_REQUIRED });
      actor.send({ type: 'contact.change', fields: { email: 'a@b.co' } });
      expect(actor.getSnapshot().context.fieldErrors).not.toHaveProperty('phone');
      expect(actor.getSnapshot().context.fieldErrors).not.toHaveProperty('email');
      actor.stop();
    });
  });
});
