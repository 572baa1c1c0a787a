import { expect, test, type Page } from '@playwright/test';
import { EMAIL_INVALID, EMAIL_REQUIRED, resetRequestErrors } from '../../../src/features/auth/reset-request-check';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { FAILURE, formMachine, formPaths as paths } from './form.paths-model';
import { errorEnvelope, type Step } from './paths-support';

/**
 * The form machine's generated paths (machines/form.machine.ts, the model in form.paths-model.ts), driven through
 * the login screen's 'Forgot Password' modal: signed out, no account needed. A request for an address no account
 * has is answered like any other (the server says nothing of who exists), so a run against a deployment sends no
 * mail. Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with a stub: the server failing the request (a 500).
 */
const REQUEST = (url: URL) => url.pathname.endsWith('/auth/request-reset-password');

const dialog = (page: Page) => page.getByRole('dialog');
const field = (page: Page) => dialog(page).getByRole('textbox', { name: 'Email' });

async function open(page: Page) {
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(dialog(page).getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  // Each opening starts afresh: nothing typed, nothing said.
  await expect(field(page)).toHaveValue('');
  await expect(dialog(page).getByText(EMAIL_REQUIRED)).toHaveCount(0);
}

test.describe('form paths (generated from machines/form.machine.ts, on the Forgot Password modal)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('form (e2e paths)', coverageOf(formMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.description, async ({ page }) => {
      await page.goto('/login');
      await open(page);
      let typed = '';
      for (const [i, event] of (path.events as Step[]).entries()) {
        const next = path.events[i + 1] as Step | undefined;
        await test.step(event.type, async () => {
          switch (event.type) {
            case 'form.change':
              typed = (event.values as { email: string }).email;
              await field(page).fill(typed);
              // Typing clears the field's sentence.
              await expect(dialog(page).getByText(EMAIL_REQUIRED)).toHaveCount(0);
              await expect(dialog(page).getByText(EMAIL_INVALID)).toHaveCount(0);
              return;
            case 'form.submit': {
              const sentence = resetRequestErrors({ email: typed }).email;
              if (next?.type === 'xstate.error.actor.submit') await page.route(REQUEST, (route) => route.fulfill(errorEnvelope(500, FAILURE)));
              await dialog(page).getByRole('button', { name: 'Send Reset Link' }).click();
              // Refused in the form: the field says why and the modal stays.
              if (sentence) await expect(dialog(page).getByText(sentence)).toBeVisible();
              return;
            }
            case 'xstate.done.actor.submit':
              await expect(dialog(page).getByText(`Password reset instructions sent to ${typed.trim()}`)).toBeVisible();
              return;
            case 'xstate.error.actor.submit':
              await expect(dialog(page).getByText(FAILURE)).toBeVisible();
              // What was typed is kept for another try.
              await expect(field(page)).toHaveValue(typed);
              await page.unroute(REQUEST);
              return;
            case 'form.dismissError':
              await dialog(page).getByRole('button', { name: 'Dismiss' }).click();
              await expect(dialog(page).getByText(FAILURE)).toHaveCount(0);
              return;
            case 'form.reset': {
              // Closed by OK once sent, else by Cancel; opened again, it starts afresh.
              const ok = dialog(page).getByRole('button', { name: 'OK' });
              await ((await ok.count()) > 0 ? ok : dialog(page).getByRole('button', { name: 'Cancel' })).click();
              await expect(dialog(page)).toHaveCount(0);
              typed = '';
              await open(page);
              return;
            }
            default:
              throw new Error(`no browser step for ${event.type}`);
          }
        });
      }
    });
  }
});
