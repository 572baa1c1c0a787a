import { expect, test, type Page } from '@playwright/test';
import { COPY_LINK_FAILED, LINK_COPIED, SHARE_LINK_FAILED } from '../../../machines/share.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { AFTER, shareMachine, sharePaths as paths } from './share.paths-model';
import { errorEnvelope, startConversation, unique, type Step } from './paths-support';

/**
 * The share machine's generated paths (machines/share.machine.ts, the model in share.paths-model.ts), driven
 * through the real Share modal of a conversation the test makes. The link comes from the real server; the
 * clipboard is Chromium's. Generated only locally (no E2E_BASE_URL), forced with stubs: the link request failing
 * (a 500 on POST /shares/conversations/{id}) and the clipboard refusing the text.
 */
const SHARE_REQUEST = (url: URL) => url.pathname.includes('/api/v1/shares/conversations/');
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Share Conversation' });

async function perform(page: Page, event: Step, next: Step | undefined) {
  switch (event.type) {
    case 'xstate.done.actor.createLink':
      await expect(dialog(page).getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/share\/[A-Za-z0-9_-]{22,}$/);
      return;
    case 'xstate.error.actor.createLink':
      await expect(dialog(page).getByText(SHARE_LINK_FAILED)).toBeVisible();
      await page.unroute(SHARE_REQUEST);
      return;
    case 'share.retry':
      await dialog(page).getByRole('button', { name: 'Try again' }).click();
      // A path may end here: the server then gives the link as it does on the first try.
      if (!next) await expect(dialog(page).getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/share\//);
      return;
    case 'share.copy':
      if (next?.type === 'xstate.error.actor.copyText') {
        await page.evaluate(() => {
          navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
        });
      }
      await dialog(page).getByRole('button', { name: 'Copy link' }).click();
      return;
    case 'xstate.done.actor.copyText': {
      await expect(page.getByText(LINK_COPIED)).toBeVisible();
      await expect(dialog(page).getByRole('button', { name: 'Link copied' })).toBeVisible();
      const url = await dialog(page).getByRole('textbox', { name: 'Share link' }).inputValue();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      return;
    }
    case 'xstate.error.actor.copyText':
      await expect(page.getByText(COPY_LINK_FAILED)).toBeVisible();
      await expect(dialog(page).getByRole('button', { name: 'Copy link' })).toBeVisible();
      return;
    case AFTER:
      // Two seconds on, the button offers to copy again.
      await expect(dialog(page).getByRole('button', { name: 'Copy link' })).toBeVisible({ timeout: 5_000 });
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

test.describe('share paths (generated from machines/share.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('share (e2e paths)', coverageOf(shareMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.description.replaceAll(AFTER, '2 s later'), async ({ page, context }) => {
      test.slow();
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signInAndLand(page, accounts.user, /\/chat$/);
      await startConversation(page, unique('Draft a welcome note'));
      if (path.events[0]?.type === 'xstate.error.actor.createLink') {
        await page.route(SHARE_REQUEST, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      }
      // The path starts when the modal opens (the chat screen spawns the machine).
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await expect(dialog(page)).toBeVisible();
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type === AFTER ? '2 s later' : event.type, () => perform(page, event, path.events[i + 1]));
      }
    });
  }
});
