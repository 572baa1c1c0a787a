import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { SHARE_LINK_ERROR, SHARE_LINK_FAILED, SHARING_STOPPED } from '../../machines/share.machine';
import { LINK_UNAVAILABLE, LOAD_SHARED_FAILED } from '../../machines/shared-conversation.machine';
import { accounts, password, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { apiToken, errorEnvelope, signedInToken, unique } from './paths/paths-support';
import { openSeededConversation, seededConversation } from './helpers/seed';

// Issue 28, shared links: back to the link after sign-in, the owner's list and 'Stop sharing', a link that is gone.

const SHOTS = process.env.SHARE_SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A conversation of the e2e user, titled, shared through the API; returns its link's path and id. */
async function sharedConversation(request: APIRequestContext, token: string, title: string) {
  const id = await seededConversation(request, `${title}: what should I know?`);
  const renamed = await request.patch(`/api/v1/chat/conversations/${id}/rename`, { headers: auth(token), params: { title } });
  expect(renamed.ok()).toBe(true);
  const res = await request.post(`/api/v1/shares/conversations/${id}`, { headers: auth(token) });
  expect(res.ok()).toBe(true);
  const { share_url, share_id } = ((await res.json()) as { data: { share_url: string; share_id: string } }).data;
  return { conversationId: id, path: new URL(share_url).pathname, shareId: share_id, url: share_url };
}

async function fillSignIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A person in their own browser context (own storage: their own session). */
async function asPerson(browser: Browser, email: string, landing: RegExp) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAndLand(page, email, landing);
  return { page, close: () => context.close() };
}

test.describe('shared links', () => {
  // Each test sets up conversations through the real API (streamed replies): on a busy 2-core machine (load 30+)
  // the default slow() budget of 90 s ran out during setup.
  test.beforeEach(() => test.setTimeout(240_000));
  test('a link opened while signed out shows the shared conversation after sign-in; a forged return target is ignored', async ({ page, request, browser }) => {
    const title = unique('Travel claims');
    const share = await sharedConversation(request, await apiToken(request), title);

    await page.goto(share.path);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirect=${encodeURIComponent(share.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await fillSignIn(page, accounts.admin);
    await expect(page).toHaveURL(new RegExp(`${share.path}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Shared question' })).toHaveText(`${title}: what should I know?`);

    // A login URL naming another site (or a path browsers read as another host) lands on Home as usual.
    // (More forms, '/\\host' and control characters among them, are in test/unit/return-path.test.ts.)
    // Each in a browser of its own: clearing the signed-in page's storage raced with the app writing a refreshed
    // token back (the page stayed signed in, once in CI).
    for (const target of ['https://evil.example/share/x', '//evil.example/share/x']) {
      const context = await browser.newContext();
      const fresh = await context.newPage();
      await fresh.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await fillSignIn(fresh, accounts.admin);
      await expect(fresh).toHaveURL(/\/home$/);
      expect(new URL(fresh.url()).host).toBe(new URL(share.url).host);
      await context.close();
    }
  });

  test('a stopped link says so once, with no Try again; a server failure keeps Try again', async ({ browser, request }) => {
    const token = await apiToken(request);
    const share = await sharedConversation(request, token, unique('Budget notes'));
    expect((await request.delete(`/api/v1/shares/${share.shareId}`, { headers: auth(token) })).ok()).toBe(true);

    const colleague = await asPerson(browser, accounts.admin, /\/home$/);
    const page = colleague.page;
    await page.goto(share.path);
    await expect(page.getByText(LINK_UNAVAILABLE)).toHaveCount(1);
    await expect(page.getByText(LINK_UNAVAILABLE)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(page.getByText(LOAD_SHARED_FAILED)).toHaveCount(0);
    await expect(page.getByRole('article')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await shot(page, 'unavailable-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await shot(page, 'unavailable-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A link that exists, with the server failing: asking again can help, so 'Try again' is there and works.
    const live = await sharedConversation(request, token, unique('Live link'));
    let failures = 1;
    await page.route(`**/api/v1/shares/${live.shareId}*`, (route) =>
      failures-- > 0 ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback(),
    );
    await page.goto(live.path);
    await expect(page.getByText(LOAD_SHARED_FAILED)).toBeVisible();
    await expect(page.getByText(LINK_UNAVAILABLE)).toHaveCount(0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('article', { name: 'Shared question' })).toBeVisible();
    await colleague.close();
  });

  test('the owner lists their links from the profile menu and stops one after confirming', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    const token = await signedInToken(page);
    const older = await sharedConversation(page.request, token, unique('Leave policy'));
    const newer = await sharedConversation(page.request, token, unique('Onboarding checklist'));

    await page.getByRole('button', { name: 'Account details' }).click();
    await page.getByRole('link', { name: 'Shared Links' }).click();
    await expect(page).toHaveURL(/\/shared-links$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Shared Links' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Shared links' });
    const rows = list.getByRole('listitem');
    // Newest first, each with its link. Other tests signed in as this person may share meanwhile (workers run at
    // once), so the two links made here are compared with each other, not with the top of the list.
    await expect(rows.filter({ hasText: newer.url })).toHaveCount(1);
    await expect(rows.filter({ hasText: older.url })).toHaveCount(1);
    const texts = await rows.allTextContents();
    expect(texts.findIndex((t) => t.includes(newer.url))).toBeLessThan(texts.findIndex((t) => t.includes(older.url)));
    const row = rows.filter({ hasText: older.url });
    await expect(row.getByRole('link', { name: older.url })).toHaveAttribute('href', older.path);
    await expectNoAxeViolations(page);
    await shot(page, 'list-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await shot(page, 'list-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(PHONE);
    await expectNoHorizontalOverflow(page);
    await shot(page, 'list-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    // A confirmation first; Cancel keeps the link.
    const stop = row.getByRole('button', { name: /^Stop sharing / });
    await stop.click();
    const confirm = page.getByRole('alertdialog', { name: 'Stop Sharing' });
    await expect(confirm).toContainText('The link will stop working for everyone who has it.');
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await page.request.get(`/api/v1/shares/${older.shareId}`, { headers: auth(token) })).status()).toBe(200);

    await stop.click();
    await confirm.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(page.getByText(SHARING_STOPPED, { exact: true })).toBeVisible();
    await expect(list.getByText(older.url)).toHaveCount(0);
    await expect(list.getByText(newer.url)).toBeVisible();
    expect((await page.request.get(`/api/v1/shares/${older.shareId}`, { headers: auth(token) })).status()).toBe(404);
  });

  test("the Share modal tells 'Error creating share link' (no answer) from 'Failed to get share link' (the server refused)", async ({ page }) => {
    await signInByApi(page, accounts.user);
    await openSeededConversation(page, unique('Quarterly targets'));
    const dialog = page.getByRole('dialog', { name: 'Share Conversation' });
    const shareRequest = (url: URL) => url.pathname.includes('/api/v1/shares/conversations/');

    // No answer: the spec's 'Error creating share link', and asking again can help.
    await page.route(shareRequest, (route) => route.abort('connectionreset'));
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(dialog.getByText(SHARE_LINK_ERROR)).toBeVisible();
    await expect(dialog.getByText(SHARE_LINK_FAILED)).toHaveCount(0);
    await page.unroute(shareRequest);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/share\//);
    await shot(page, 'modal-light');
    await dialog.getByRole('button', { name: 'Stop sharing' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await shot(page, 'modal-confirm-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // The server refused (the conversation is gone): 'Failed to get share link' with its reason, and no Try again.
    await page.route(shareRequest, (route) => route.fulfill(errorEnvelope(404, 'Conversation not found')));
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(dialog.getByText(`${SHARE_LINK_FAILED}. Conversation not found.`)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  });
});
