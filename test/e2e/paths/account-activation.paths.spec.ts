import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACTIVATION_LINK_EXPIRED, ACTIVATION_LINK_INVALID, NEW_ACTIVATION_LINK_SENT } from '../../../contract/registration-constants';
import { errorBody } from '../../../server/http/errors';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { isLocalServer } from '../helpers/accounts';
import { mailApi } from '../helpers/mail-api';
import {
  activateByApi,
  activationPath,
  adminToken,
  codeOf,
  expireActivation,
  forgetActivation,
  deactivateRegistered,
  registerPerson,
  setPersonStatus,
} from '../helpers/activation';
import { ACTIVATION_NEEDS_MAIL, accountActivationMachine, accountActivationPaths as paths } from './account-activation.paths-model';
import { type Step } from './paths-support';

/**
 * The account-activation machine's generated paths (machines/account-activation.machine.ts, the model in
 * account-activation.paths-model.ts), driven through the real /activate/{code} screen. Each path registers its own
 * person through the API as the demo admin and opens the link from their mail: the local server's outbox, or against
 * a deployment its mail-catcher (E2E_MAIL_API, test/e2e/helpers/mail-api.ts; without one the paths are skipped and
 * say why). Every refusal is real locally: the link used through the API, the person deactivated through the API, the link
 * expired or forgotten in the server's database. Stubs: "the request never arrives", and against a deployment (its
 * database out of reach, its links good for 72 hours) the server's answer for an expired or unknown link, after
 * which the real server mails no new link for the unexpired one (the paths model keeps that step local).
 */
const ACTIVATE = '**/api/v1/auth/activate*';
const CHECK = '**/api/v1/auth/activate/check*';
const RESEND = '**/api/v1/auth/resend-activation*';
/** What the server answers for an expired or unknown link (server/services/identity/registration.ts). */
const answer = (status: number, detail: string, code: string) => ({ status, contentType: 'application/json', body: JSON.stringify(errorBody(detail, { code })) });
const LINK_ANSWERS = {
  activation_expired: answer(409, ACTIVATION_LINK_EXPIRED, 'activation_expired'),
  activation_invalid: answer(400, ACTIVATION_LINK_INVALID, 'activation_invalid'),
};

interface Person {
  email: string;
  id: string;
  link: string;
  token: string;
  /** How many activation mails they have been sent so far. */
  mails: number;
}

/** A path's title: its events, each refusal with its reason (several refusals share an event type). */
const titleOf = (events: Step[]) =>
  events
    .map((e) => {
      const failure = e.error as { reason?: string | null } | undefined;
      return failure ? `${e.type} (${failure.reason ?? 'no answer'})` : e.type;
    })
    .join(' → ');

const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** What the server will answer next, set up before the click that asks it. */
async function prepare(page: Page, request: APIRequestContext, person: Person, next: Step | undefined) {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const reason = (next?.error as { reason?: string | null } | undefined)?.reason;
  const code = codeOf(person.link);
  switch (next?.type) {
    case 'xstate.done.actor.activate':
      // A person deactivated by an earlier step of the path is active again.
      await setPersonStatus(request, person.token, person.id, 'active');
      return;
    case 'xstate.done.actor.check':
      return;
    case 'xstate.error.actor.check':
    case 'xstate.error.actor.activate':
      if (reason === 'activation_used') {
        // Used elsewhere: by the person, so active again if an earlier step of the path deactivated them.
        await setPersonStatus(request, person.token, person.id, 'active');
        await activateByApi(request, code, 'used-elsewhere-1');
      }
      else if (reason === 'activation_expired' || reason === 'activation_invalid') {
        // Locally the link is aged or forgotten in the server's database. A deployment's is out of reach (and lasts
        // 72 hours): there the server's own answer for such a link is given by a stub.
        if (isLocalServer) (reason === 'activation_expired' ? expireActivation : forgetActivation)(code);
        else await page.route(next.type === 'xstate.error.actor.check' ? CHECK : ACTIVATE, (route) => route.fulfill(LINK_ANSWERS[reason]));
      }
      else if (reason === 'activation_inactive') await setPersonStatus(request, person.token, person.id, 'inactive');
      else await page.route(next.type === 'xstate.error.actor.check' ? CHECK : ACTIVATE, (route) => route.abort());
      return;
    case 'xstate.error.actor.resend':
      // The link stops qualifying for a new one once the person is inactive: answered like an unknown link.
      if (reason === 'activation_invalid') await setPersonStatus(request, person.token, person.id, 'inactive');
      else await page.route(RESEND, (route) => route.abort());
      return;
    default:
  }
}

async function perform(page: Page, request: APIRequestContext, person: Person, event: Step, next: Step | undefined) {
  const reason = (event.error as { reason?: string | null } | undefined)?.reason;
  const message = (event.error as Error | undefined)?.message;
  switch (event.type) {
    case 'activation.submit':
      await prepare(page, request, person, next);
      await page.getByLabel('New password').fill('path-password-1');
      await page.getByLabel('Confirm password').fill('path-password-1');
      await page.getByRole('button', { name: 'Activate Account' }).click();
      return;
    case 'activation.dismissError':
      await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
      await expect(page.getByRole('alert')).toBeHidden();
      return;
    case 'xstate.done.actor.check':
      await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      return;
    case 'xstate.error.actor.check':
      // Said as the page opens, before any password is typed.
      if (reason === 'activation_used') await expect(page.getByRole('heading', { name: 'Link already used' })).toBeVisible();
      else if (reason === 'activation_expired') await expect(page.getByRole('heading', { name: 'Link expired' })).toBeVisible();
      else if (reason === 'activation_invalid') await expect(page.getByRole('heading', { name: 'Invalid activation link' })).toBeVisible();
      else {
        await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
        if (reason === 'activation_inactive') await expect(alert(page, message!)).toBeVisible();
        else await expect(page.getByRole('alert')).toHaveCount(0);
      }
      if (reason === 'activation_used' || reason === 'activation_expired' || reason === 'activation_invalid') {
        await expect(page.getByLabel('New password')).toHaveCount(0);
      }
      return;
    case 'xstate.done.actor.activate':
      await expect(page.getByRole('heading', { name: 'Account activated!' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
      return;
    case 'xstate.error.actor.activate':
      if (reason === 'activation_used') await expect(page.getByRole('heading', { name: 'Link already used' })).toBeVisible();
      else if (reason === 'activation_expired') await expect(page.getByRole('heading', { name: 'Link expired' })).toBeVisible();
      else if (reason === 'activation_invalid') await expect(page.getByRole('heading', { name: 'Invalid activation link' })).toBeVisible();
      else {
        await expect(alert(page, message!)).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
      }
      return;
    case 'activation.resend':
      await prepare(page, request, person, next);
      await page.getByRole('button', { name: 'Send me a new link' }).click();
      return;
    case 'xstate.done.actor.resend':
      await expect(page.getByText(NEW_ACTIVATION_LINK_SENT)).toBeVisible();
      // The new link is in the person's mail.
      person.mails += 1;
      expect(await activationPath(person.email, person.mails)).not.toBe(person.link);
      return;
    case 'xstate.error.actor.resend':
      if (reason === 'activation_invalid') await expect(page.getByRole('heading', { name: 'Invalid activation link' })).toBeVisible();
      else {
        await expect(alert(page, message!)).toBeVisible();
        await expect(page.getByRole('button', { name: 'Send me a new link' })).toBeEnabled();
      }
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** Addresses a path registered, deactivated after it (the demo organisation's seats are limited). */
const registered: string[] = [];

test.describe('account activation paths (generated from machines/account-activation.machine.ts)', () => {
  test.skip(!isLocalServer && !mailApi, ACTIVATION_NEEDS_MAIL);
  test.afterEach(({ request }) => deactivateRegistered(request, registered));
  test.afterAll(() => {
    console.log(formatCoverage('account-activation (e2e paths)', coverageOf(accountActivationMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(titleOf(path.events), async ({ page, request }) => {
      const token = await adminToken(request);
      const email = `activation-path.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@demo.local`;
      const id = await registerPerson(request, token, email);
      registered.push(email);
      const person: Person = { email, id, token, link: await activationPath(email), mails: 1 };
      // The path starts when the person opens the link from their mail: what the check will find is set up first.
      await prepare(page, request, person, path.events[0]);
      await page.goto(person.link);
      for (const [i, event] of path.events.entries()) {
        await test.step(titleOf([event]), () => perform(page, request, person, event, path.events[i + 1]));
      }
    });
  }
});
