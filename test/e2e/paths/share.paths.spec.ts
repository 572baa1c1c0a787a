import { expect, test, type Page } from '@playwright/test';
import {
  COPY_LINK_FAILED,
  LINK_COPIED,
  SHARE_LINK_ERROR,
  SHARE_LINK_FAILED,
  SHARING_STOPPED,
  STOP_SHARING_CONFIRM,
  STOP_SHARING_FAILED,
} from '../../../machines/share.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { AFTER, ALREADY_GONE, NO_ANSWER, shareMachine, sharePaths as paths } from './share.paths-model';
import { errorEnvelope, unique, type Step } from './paths-support';
import { seededConversation } from '../helpers/seed';

/**
 * The share machine's generated paths (machines/share.machine.ts, the model in share.paths-model.ts), driven
 * through the real Share modal of a conversation the test makes. The link comes from the real server; the
 * clipboard is Chromium's. Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the link request failing
 * (a 500 on POST /shares/conversations/{id}, or no answer), the clipboard refusing the text, and stopping the share
 * failing (a 500 on DELETE /shares/{shareId}). The clipboard is held (the page's writeText waits for the test) so a
 * second click lands while it answers. Stopping a link already stopped elsewhere is real: the test stops it through
 * the API first, as another tab would, and the server answers 404. A stopped link is checked to open nothing any more.
 */
const SHARE_REQUEST = (url: URL) => url.pathname.includes('/api/v1/shares/conversations/');
const REVOKE_REQUEST = (url: URL) => /\/api\/v1\/shares\/[A-Za-z0-9_-]{22,}$/.test(url.pathname);
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Share Conversation' });
const linkField = (page: Page) => dialog(page).getByRole('textbox', { name: 'Share link' });

/** Before the step that makes the request: the stub the next (fault) event needs. */
async function arm(page: Page, next: Step | undefined) {
  if (next?.type === 'xstate.error.actor.createLink') {
    const dropped = (next.error as { status: number }).status === NO_ANSWER.status;
    await page.route(SHARE_REQUEST, (route) => (dropped ? route.abort('connectionreset') : route.fulfill(errorEnvelope(500, 'Internal Server Error'))));
  }
  if (next?.type === 'xstate.error.actor.revokeLink' && statusOf(next) === ALREADY_GONE.status) {
    // Stopped meanwhile in another tab: the modal still shows the link, the server no longer has it.
    const res = await page.request.delete(`/api/v1/shares/${shareIdOf(lastLink!)}`, { headers: { Authorization: `Bearer ${await tokenOf(page)}` } });
    expect(res.ok()).toBe(true);
  } else if (next?.type === 'xstate.error.actor.revokeLink') {
    await page.route(REVOKE_REQUEST, (route) =>
      route.request().method() === 'DELETE' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback(),
    );
  }
}

/** The link last shown, checked to open nothing once sharing stopped. */
let lastLink: string | null = null;

const statusOf = (event: Step) => (event.error as { status?: number }).status;
const shareIdOf = (link: string) => new URL(link).pathname.split('/').at(-1)!;
const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

/** The link opens nothing any more, for its owner either. */
async function expectLinkDead(page: Page) {
  const res = await page.request.get(`/api/v1/shares/${shareIdOf(lastLink!)}`, { headers: { Authorization: `Bearer ${await tokenOf(page)}` } });
  expect(res.status()).toBe(404);
}

async function expectStopped(page: Page) {
  await expect(page.getByText(SHARING_STOPPED, { exact: true })).toBeVisible();
  await expect(dialog(page).getByText('This conversation is no longer shared. The link no longer opens it.')).toBeVisible();
  await expect(linkField(page)).toHaveCount(0);
  await expectLinkDead(page);
}

async function perform(page: Page, event: Step, next: Step | undefined) {
  switch (event.type) {
    case 'xstate.done.actor.createLink':
      await expect(linkField(page)).toHaveValue(/\/share\/[A-Za-z0-9_-]{22,}$/);
      lastLink = await linkField(page).inputValue();
      return;
    case 'xstate.error.actor.createLink': {
      const dropped = (event.error as { status: number }).status === NO_ANSWER.status;
      await expect(dialog(page).getByText(dropped ? SHARE_LINK_ERROR : SHARE_LINK_FAILED)).toBeVisible();
      await expect(dialog(page).getByRole('button', { name: 'Try again' })).toBeVisible();
      await page.unroute(SHARE_REQUEST);
      return;
    }
    case 'share.retry':
      await arm(page, next);
      await dialog(page).getByRole('button', { name: 'Try again' }).click();
      // A path may end here: the server then gives the link as it does on the first try.
      if (!next) await expect(linkField(page)).toHaveValue(/\/share\//);
      return;
    case 'share.stop':
      await dialog(page).getByRole('button', { name: 'Stop sharing' }).click();
      await expect(dialog(page).getByText(STOP_SHARING_CONFIRM)).toBeVisible();
      return;
    case 'share.stopCancel':
      await dialog(page).getByRole('alertdialog', { name: 'Stop sharing' }).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page).getByText(STOP_SHARING_CONFIRM)).toHaveCount(0);
      await expect(linkField(page)).toHaveValue(lastLink!);
      return;
    case 'share.stopConfirm':
      await arm(page, next);
      await dialog(page).getByRole('alertdialog', { name: 'Stop sharing' }).getByRole('button', { name: 'Stop sharing' }).click();
      return;
    case 'xstate.done.actor.revokeLink':
      await expectStopped(page);
      return;
    case 'xstate.error.actor.revokeLink':
      // Already stopped elsewhere: the same outcome as stopping it here, no failure shown.
      if (statusOf(event) === ALREADY_GONE.status) {
        await expectStopped(page);
        await expect(page.getByText(STOP_SHARING_FAILED)).toHaveCount(0);
        return;
      }
      await expect(page.getByText(STOP_SHARING_FAILED)).toBeVisible();
      await page.unroute(REVOKE_REQUEST);
      // Still shared: the same link, offered again.
      await expect(linkField(page)).toHaveValue(lastLink!);
      return;
    case 'share.again':
      await arm(page, next);
      await dialog(page).getByRole('button', { name: 'Create a new link' }).click();
      if (!next) {
        await expect(linkField(page)).toHaveValue(/\/share\//);
        // A new link: the stopped one stays dead.
        expect(await linkField(page).inputValue()).not.toBe(lastLink);
      }
      return;
    case 'share.copy':
      if (await page.evaluate(() => 'releaseCopy' in window)) {
        // A second click while the clipboard still answers: the same copy, nothing asked of the clipboard again.
        await dialog(page).getByRole('button', { name: 'Copy link' }).click();
        await expect(page.getByText(LINK_COPIED)).toHaveCount(0);
        expect(await page.evaluate(() => (window as unknown as HeldCopy).copyCalls)).toBe(1);
        await page.evaluate(() => (window as unknown as HeldCopy).releaseCopy());
        // One copy, one notice.
        if (!next) await perform(page, { type: 'xstate.done.actor.copyText' }, undefined);
        await expect(page.getByText(LINK_COPIED)).toHaveCount(1);
        return;
      }
      if (next?.type === 'share.copy') await page.evaluate(holdCopy);
      if (next?.type === 'xstate.error.actor.copyText') {
        await page.evaluate(() => {
          navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
        });
      }
      if (next?.type === 'xstate.done.actor.copyText' || next?.type === 'share.copy') await page.evaluate(watchCopyButton);
      await dialog(page).getByRole('button', { name: 'Copy link' }).click();
      return;
    case 'xstate.done.actor.copyText': {
      await expect(page.getByText(LINK_COPIED)).toBeVisible();
      // Read from what the page drew, not by looking now: the label goes back after 2 s, and on a busy machine the
      // toast's check alone has taken longer than that.
      await expect.poll(() => page.evaluate(() => (window as unknown as CopyButtonWatch).copyButtonLabels)).toContain('Link copied');
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

type CopyButtonWatch = { copyButtonLabels: string[] };
type HeldCopy = { copyCalls: number; releaseCopy: () => void };

/** Runs in the page: the clipboard takes the text only once the test calls releaseCopy(); counts the writes asked. */
function holdCopy() {
  const held = window as unknown as HeldCopy;
  const write = navigator.clipboard.writeText.bind(navigator.clipboard);
  const released = new Promise<void>((resolve) => (held.releaseCopy = resolve));
  held.copyCalls = 0;
  navigator.clipboard.writeText = async (text: string) => {
    held.copyCalls++;
    await released;
    return write(text);
  };
}

/** Runs in the page: notes every label the share dialog's copy button takes from now on. */
function watchCopyButton() {
  const watch = window as unknown as CopyButtonWatch;
  watch.copyButtonLabels = [];
  const note = () => {
    const label = document.querySelector('[role="dialog"] button:is([aria-label="Copy link"], [aria-label="Link copied"])')?.getAttribute('aria-label');
    if (label && watch.copyButtonLabels.at(-1) !== label) watch.copyButtonLabels.push(label);
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
}

/** The path's events, a fault named by its status (two paths can differ only in it). */
const titleOf = (events: Step[]) =>
  events.map((e) => (e.type === AFTER ? '2 s later' : e.error && statusOf(e) !== undefined ? `${e.type} (${statusOf(e)})` : e.type)).join(' → ');

test.describe('share paths (generated from machines/share.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('share (e2e paths)', coverageOf(shareMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(titleOf(path.events), async ({ page, context }) => {
      test.slow();
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signInByApi(page, accounts.user);
      await page.goto(`/chat?id=${await seededConversation(page.request, unique('Draft a welcome note'))}`);
      await expect(page.getByRole('article', { name: 'Assistant message' }).last()).not.toBeEmpty();
      lastLink = null;
      await arm(page, path.events[0]);
      // The path starts when the modal opens (the chat screen spawns the machine).
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      await expect(dialog(page)).toBeVisible();
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type === AFTER ? '2 s later' : event.type, () => perform(page, event, path.events[i + 1]));
      }
    });
  }
});
