import { assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { ContactFormRequest, ContactFormSettings } from '../contract/contact-form';
import {
  CONTACT_BAD_REQUEST,
  CONTACT_NETWORK_ERROR,
  CONTACT_SENT,
  CONTACT_SERVER_ERROR,
  RECAPTCHA_EXPIRED,
  RECAPTCHA_FAILED,
  RECAPTCHA_LOAD_FAILED,
  RECAPTCHA_REQUIRED,
} from '../contract/contact-form-constants';
import { contactFieldErrors, isStaffEmail, type ContactFieldErrors, type ContactFields } from '../shared/contact-form-rules';
import { answerStatusOf } from './answer-status';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';

/**
 * The landing page's 'Let's Register!' contact form (administration spec sections 4, 5 and 8).
 *
 * `closed`: `contact.open` (the message box's send) opens it; every close empties the form and its sentences.
 * `loading` (tag `busy`): the form's settings (reCAPTCHA site key and script, staff domain) are read; the view renders
 * the widget once they are there. `editing`: `contact.change` sets fields and clears their sentences; the widget
 * reports `recaptcha.verified` (its token), `recaptcha.expired` and `recaptcha.failed` (the widget's error) and
 * `recaptcha.unavailable` (its script did not load), each with the spec's sentence. `contact.submit` goes on only when
 * the fields pass the rules both sides share (shared/contact-form-rules.ts), there is a token, a site key, and the
 * e-mail is not the staff domain's (then the form says 'Your email has been registered...' with Go to Login, and
 * neither the widget nor Submit shows). `submitting` (tag `busy`): a 400 shows the server's sentence or 'Please check
 * your form data and try again.', a 500 'Server error occurred...', anything else 'Failed to submit form...'; the
 * widget is reset (`recaptchaResets` counts, the view resets the widget when it changes) and its token dropped.
 * `sent`: the server's message or 'Contact form has been sent successfully!...'.
 */

export const emptyContactFields: ContactFields = { name: '', phone: '', email: '', hearAboutUs: '' };

export interface ContactFormContext {
  fields: ContactFields;
  fieldErrors: ContactFieldErrors;
  settings: ContactFormSettings | null;
  token: string | null;
  /** The widget's sentence (required, expired, failed, failed to load). */
  recaptchaError: string | null;
  /** Why the last submission failed. */
  error: string | null;
  sentMessage: string | null;
  /** Raised on every failed submission: the view resets the widget when it changes. */
  recaptchaResets: number;
}

export type ContactFormEvent =
  | { type: 'contact.open' }
  | { type: 'contact.close' }
  | { type: 'contact.change'; fields: Partial<ContactFields> }
  | { type: 'contact.submit' }
  | { type: 'recaptcha.verified'; token: string }
  | { type: 'recaptcha.expired' }
  | { type: 'recaptcha.failed' }
  | { type: 'recaptcha.unavailable' }
  | DoneActorEvent<ContactFormSettings, 'fetchSettings'>
  | ErrorActorEvent<unknown, 'fetchSettings'>
  | DoneActorEvent<{ message?: string }, 'submit'>
  | ErrorActorEvent<unknown, 'submit'>;

/** The staff domain's addresses are told to log in instead (the form then offers no reCAPTCHA and no Submit). */
export const isStaffAddress = (context: Pick<ContactFormContext, 'fields' | 'settings'>) =>
  Boolean(context.settings && context.fields.email.trim() !== '' && isStaffEmail(context.fields.email, context.settings.staff_email_domain));

/** Submit is offered only with a site key (spec: disabled when none is configured) and for a non-staff address. */
export const canOfferSubmit = (context: Pick<ContactFormContext, 'fields' | 'settings'>) =>
  Boolean(context.settings?.recaptcha_site_key) && !isStaffAddress(context);

export function submissionFailure(error: unknown): string {
  const status = answerStatusOf(error);
  if (status === 400) return serverDetailOf(error) ?? CONTACT_BAD_REQUEST;
  if (status === 500) return CONTACT_SERVER_ERROR;
  return CONTACT_NETWORK_ERROR;
}

export const contactRequestOf = (context: Pick<ContactFormContext, 'fields' | 'token'>): Required<ContactFormRequest> => ({
  name: context.fields.name.trim(),
  phone: context.fields.phone.trim(),
  email: context.fields.email.trim(),
  hearAboutUs: context.fields.hearAboutUs,
  recaptcha_token: context.token ?? '',
});

const fresh = {
  fields: emptyContactFields,
  fieldErrors: {},
  token: null,
  recaptchaError: null,
  error: null,
  sentMessage: null,
} satisfies Partial<ContactFormContext>;

export const contactFormMachine = setup({
  types: {
    context: {} as ContactFormContext,
    events: {} as ContactFormEvent,
    tags: {} as 'busy',
    children: {} as { fetchSettings: 'fetchSettings'; submit: 'submit' },
  },
  actors: {
    fetchSettings: notProvided<ContactFormSettings, void>('fetchSettings'),
    submit: notProvided<{ message?: string }, Required<ContactFormRequest>>('submit'),
  },
  guards: {
    mayBeSent: ({ context }) =>
      canOfferSubmit(context) && context.token !== null && Object.keys(contactFieldErrors(context.fields)).length === 0,
  },
  actions: {
    reset: assign(fresh),
  },
}).createMachine({
  id: 'contactForm',
  context: { ...fresh, settings: null, recaptchaResets: 0 },
  initial: 'closed',
  states: {
    closed: {
      description: 'The form is not shown; opening it (the message box, Get Started) starts empty.',
      on: { 'contact.open': [{ guard: ({ context }) => context.settings !== null, target: 'editing' }, { target: 'loading' }] },
    },
    loading: {
      description: "The form's settings (reCAPTCHA site key and script, staff domain) are being read.",
      tags: 'busy',
      invoke: {
        id: 'fetchSettings',
        src: 'fetchSettings',
        onDone: { target: 'editing', actions: assign({ settings: ({ event }) => event.output }) },
        // Without its settings the widget cannot load: said as the widget's own failure; Submit stays off.
        onError: { target: 'editing', actions: assign({ recaptchaError: RECAPTCHA_LOAD_FAILED }) },
      },
      on: { 'contact.close': { target: 'closed', actions: 'reset' } },
    },
    editing: {
      description: 'The visitor fills in the form and completes the reCAPTCHA.',
      on: {
        'contact.close': { target: 'closed', actions: 'reset' },
        'contact.change': {
          actions: assign(({ context, event }) => {
            const fieldErrors = { ...context.fieldErrors };
            for (const field of Object.keys(event.fields)) delete fieldErrors[field as keyof ContactFields];
            // One sentence stands for both phone and e-mail: either being typed answers it.
            if ('phone' in event.fields || 'email' in event.fields) {
              if (fieldErrors.phone === context.fieldErrors.email) delete fieldErrors.phone;
              if (fieldErrors.email === context.fieldErrors.phone) delete fieldErrors.email;
            }
            const fields = { ...context.fields, ...event.fields };
            // A staff address hides the widget, and a widget shown again starts unticked: its token goes with it.
            const token = isStaffAddress({ fields, settings: context.settings }) ? null : context.token;
            return { fields, fieldErrors, error: null, token };
          }),
        },
        // No widget is shown to a staff address, so no token is kept for one (a late callback is dropped).
        'recaptcha.verified': {
          guard: ({ context }) => !isStaffAddress(context),
          actions: assign({ token: ({ event }) => event.token, recaptchaError: null, error: null }),
        },
        'recaptcha.expired': { actions: assign({ token: null, recaptchaError: RECAPTCHA_EXPIRED }) },
        'recaptcha.failed': { actions: assign({ token: null, recaptchaError: RECAPTCHA_FAILED }) },
        'recaptcha.unavailable': { actions: assign({ token: null, recaptchaError: RECAPTCHA_LOAD_FAILED }) },
        'contact.submit': [
          { guard: 'mayBeSent', target: 'submitting', actions: assign({ error: null, fieldErrors: {} }) },
          {
            actions: assign(({ context }) => ({
              fieldErrors: contactFieldErrors(context.fields),
              recaptchaError: canOfferSubmit(context) && context.token === null ? (context.recaptchaError ?? RECAPTCHA_REQUIRED) : context.recaptchaError,
            })),
          },
        ],
      },
    },
    submitting: {
      description: 'The lead is being sent; the server verifies the reCAPTCHA.',
      tags: 'busy',
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => contactRequestOf(context),
        onDone: { target: 'sent', actions: assign({ sentMessage: ({ event }) => event.output.message || CONTACT_SENT }) },
        onError: {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            error: submissionFailure(event.error),
            token: null,
            recaptchaResets: context.recaptchaResets + 1,
          })),
        },
      },
    },
    sent: {
      description: "'Contact form has been sent successfully! Our team will contact you soon.'",
      on: { 'contact.close': { target: 'closed', actions: 'reset' } },
    },
  },
});

export type ContactFormMachine = typeof contactFormMachine;
