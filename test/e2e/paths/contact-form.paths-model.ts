import type { SnapshotFrom } from 'xstate';
import type { ContactFormSettings } from '../../../contract/contact-form';
import { RECAPTCHA_FAILED, RECAPTCHA_LOAD_FAILED } from '../../../contract/contact-form-constants';
import { canOfferSubmit, contactFormMachine, isStaffAddress } from '../../../machines/contact-form.machine';
import { loadFailure } from '../../../machines/load-failure';
import { contactFieldErrors } from '../../../shared/contact-form-rules';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof contactFormMachine>;

/** The settings as the model sees them; the browser reads the server's staff domain and puts it in STAFF's address. */
export const MODEL_STAFF_DOMAIN = 'tanya.my';
const settings: ContactFormSettings = { recaptcha_site_key: 'site-key', recaptcha_script_url: 'http://peer/api.js', staff_email_domain: MODEL_STAFF_DOMAIN };
export const VALID = { name: 'Aminah Buyer', phone: '012-345 6789', email: '', hearAboutUs: 'search' };
export const STAFF = { email: `amir@${MODEL_STAFF_DOMAIN}` };
export const NO_PHONE = { phone: '' };
/** The verifier refuses the token (the widget gave one the local verifier does not know): the server's 400 says so. */
export const REFUSED = Object.assign(loadFailure('HTTP 400', RECAPTCHA_FAILED), { status: 400 });
/** No answer: the network failed. */
export const DROPPED = Object.assign(loadFailure('Network Error', null), { status: 0 });

/** A widget is on screen to report on: settings with a site key, not a staff address, and its script loaded. */
const widgetShown = (s: Snap) => Boolean(s.context.settings?.recaptcha_site_key) && !isStaffAddress(s.context) && s.context.recaptchaError !== RECAPTCHA_LOAD_FAILED;

/**
 * A visitor on the landing page opens 'Let's Register!' (the message box's send, then Get Started), fills it in or
 * types a staff address, ticks the reCAPTCHA (the local peer's widget, which the peer can also expire or fail),
 * submits (refused in the form, or sent to the server, whose verifier passes or refuses the token), closes and opens
 * again. Generated only locally, since they need the local peer or a stub: everything the widget says, the
 * settings failing to load or held while the visitor closes, the script failing to load, the network dropping the
 * submission. Not generated: what the view does not offer (Submit while it is disabled, i.e. without a site key or
 * for a staff address; a widget's report when none is shown).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'closed':
      return [{ type: 'contact.open' }];
    case 'loading':
      return [
        { type: 'xstate.done.actor.fetchSettings', output: settings, actorId: 'fetchSettings' },
        { type: 'xstate.error.actor.fetchSettings', error: DROPPED, actorId: 'fetchSettings' },
        { type: 'contact.close' },
      ];
    case 'editing':
      return [
        { type: 'contact.change', fields: VALID },
        { type: 'contact.change', fields: STAFF },
        { type: 'contact.change', fields: NO_PHONE },
        ...(widgetShown(s)
          ? [{ type: 'recaptcha.verified', token: 'pass-token' }, { type: 'recaptcha.expired' }, { type: 'recaptcha.failed' }, { type: 'recaptcha.unavailable' }]
          : []),
        ...(canOfferSubmit(s.context) ? [{ type: 'contact.submit' }] : []),
        { type: 'contact.close' },
      ];
    case 'submitting':
      return [
        { type: 'xstate.done.actor.submit', output: {}, actorId: 'submit' },
        { type: 'xstate.error.actor.submit', error: REFUSED, actorId: 'submit' },
        { type: 'xstate.error.actor.submit', error: DROPPED, actorId: 'submit' },
      ];
    case 'sent':
      return [{ type: 'contact.close' }];
    default:
      return [];
  }
}

/**
 * Whether the deployment's reCAPTCHA is the test peer (test/e2e/helpers/recaptcha-peer.ts, as the local server's is;
 * E2E_RECAPTCHA_PEER set): its widget can be ticked, expired and failed, and its verifier refuses a token on purpose.
 */
export const testRecaptcha = isLocalServer || Boolean(process.env.E2E_RECAPTCHA_PEER);

/** What needs the test widget: Google's cannot be ticked by a test, nor made to expire or fail. */
const WIDGET = new Set([
  'recaptcha.verified',
  'recaptcha.expired',
  'recaptcha.failed',
  'xstate.done.actor.submit',
  'xstate.error.actor.submit',
]);

const generated = maximalPaths({
  machine: contactFormMachine,
  inputs: [undefined],
  events: eventsFor as never,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.settings !== null,
      Object.keys(contactFieldErrors(s.context.fields)).length === 0,
      isStaffAddress(s.context),
      s.context.token !== null,
      s.context.recaptchaError !== null,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.settings === null, s.context.token !== null]),
  edgeKeys: true,
  // The settings failing, or held while the form is closed, are stubs in the browser: generated everywhere.
  filterEvents: (_s, e) => testRecaptcha || !WIDGET.has(e.type),
});

/**
 * The widget's script loads once a page: it can fail to load only at the first opening that loads it, so
 * 'recaptcha.unavailable' is kept only right after the first settings arrive.
 */
const forceable = generated.filter((p) =>
  p.events.every((e, i) => e.type !== 'recaptcha.unavailable' || (p.events[i - 1]?.type === 'xstate.done.actor.fetchSettings' && p.events.findIndex((x) => x.type === 'xstate.done.actor.fetchSettings') === i - 1)),
);

export { contactFormMachine };
export const contactFormPaths = asSteps<undefined>(coveringPaths(contactFormMachine, forceable));

/**
 * What no browser can cause against a deployment whose reCAPTCHA is Google's (test/e2e/paths/coverage.ts counts the
 * rest): everything after a tick. With the test peer (E2E_RECAPTCHA_PEER) nothing is left out.
 */
export const contactFormUnforceable: LeftOut[] = testRecaptcha
  ? []
  : [
      {
        why: "the deployment's reCAPTCHA is Google's: a test cannot tick it, nor make it expire or fail, so nothing can be sent (E2E_RECAPTCHA_PEER, with the test peer as the deployment's reCAPTCHA, runs them)",
        transitions: [
          'contactForm.editing --recaptcha.verified#2--> (self)',
          'contactForm.editing --recaptcha.expired#3--> (self)',
          'contactForm.editing --recaptcha.failed#4--> (self)',
          'contactForm.editing --contact.submit#6--> contactForm.submitting',
          'contactForm.submitting --xstate.done.actor.submit#0--> contactForm.sent',
          'contactForm.submitting --xstate.error.actor.submit#1--> contactForm.editing',
          'contactForm.sent --contact.close#0--> contactForm.closed',
        ],
      },
    ];
