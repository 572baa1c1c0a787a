import { expect, test, type Page } from '@playwright/test';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { seededConversation } from './helpers/seed';

// The app runs under a strict Content-Security-Policy (server/http/security.ts: own scripts only, no eval,
// images only from itself). A violation means something was blocked (a broken feature) or something tried what
// the policy forbids (zod's eval probe, a remote image in a reply): either way the page must cause none.

const EVIL = 'https://evil.example';

/** Collects every CSP violation the page reports (the DOM event and the console line) across navigations. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to (evaluate|execute|load|apply|connect|create)/i.test(message.text())) {
      violations.push(`console: ${message.text()}`);
    }
  });
  await page.exposeFunction('__reportCspViolation', (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      void report(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return violations;
}

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const assistantMessages = (page: Page) => page.getByRole('article', { name: 'Assistant message' });

/** Asks on the new-chat screen, waits for the whole answer, returns the conversation's id. */
async function startConversation(page: Page, text: string): Promise<string> {
  await page.goto('/chat');
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\?id=/);
  await expect(assistantMessages(page).last()).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
  return new URL(page.url()).searchParams.get('id')!;
}

test.describe('content safety', () => {
  // Each test waits for a whole (offline) reply besides signing in and loading several screens.
  test.describe.configure({ timeout: 120_000 });

  test('no CSP violation on /login, on a signed-in /chat, nor on a conversation', async ({ page }) => {
    const violations = await watchCsp(page);

    await page.goto('/login');
    // Enabled once the app has hydrated the prerendered page: all of its code has run by then.
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await page.waitForLoadState('networkidle');
    expect(violations, 'on /login').toEqual([]);

    await signInAndLand(page, accounts.user, /\/chat$/);
    await page.reload();
    await expect(messageBox(page)).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(violations, 'on /chat').toEqual([]);

    const id = await startConversation(page, `Content safety ${Math.random().toString(36).slice(2, 8)}`);
    await page.goto(`/chat?id=${id}`);
    await expect(assistantMessages(page).last()).not.toBeEmpty();
    await page.waitForLoadState('networkidle');
    expect(violations, 'on a conversation').toEqual([]);
  });

  test("no CSP violation where a form checks its fields with the contract's schemas (zod is jitless however it is imported)", async ({ page }) => {
    const violations = await watchCsp(page);
    await signInByApi(page, accounts.admin);
    await page.goto('/register?role=user');
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(violations, 'on /register').toEqual([]);
  });

  test('a reply pointing at another origin shows links, loads nothing from it; footnotes show as copied', async ({ page, request }) => {
    const violations = await watchCsp(page);
    const fetchedElsewhere: string[] = [];
    await page.route(`${EVIL}/**`, (route) => {
      fetchedElsewhere.push(route.request().url());
      return route.abort();
    });

    await signInByApi(page, accounts.user);
    // Its reply is replaced below: a seeded conversation will do (the first test sees a reply stream).
    const id = await seededConversation(request, `Foreign markers ${Math.random().toString(36).slice(2, 8)}`);

    // As if the model had written this (a prompt injection could): the stored reply is replaced on its way in.
    const hostile = [
      `::image{url="${EVIL}/pixel.png" alt="A chart"}`,
      `::document{url="${EVIL}/payroll.xlsx" name="Payroll.xlsx"}`,
      `Inline ![tracker](${EVIL}/t.gif) image.`,
      'Budgets are set yearly[^1].',
      '[^1]: Each January.',
    ].join('\n\n');
    await page.route('**/api/v1/chat/conversations/*/messages**', async (route) => {
      const response = await route.fetch();
      const body: unknown = await response.json();
      const replies: Array<{ content: string }> = [];
      const walk = (value: unknown) => {
        if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === 'object') {
          const record = value as Record<string, unknown>;
          if (record.sender === 'Assistant' && typeof record.content === 'string') replies.push(record as { content: string });
          Object.values(record).forEach(walk);
        }
      };
      walk(body);
      for (const reply of replies) reply.content = hostile;
      await route.fulfill({ response, json: body });
    });
    await page.goto(`/chat?id=${id}`);

    const reply = assistantMessages(page).last();
    // The conversation opens on a fresh page load (the app's code, the session, the rewritten messages).
    await expect(reply).toBeVisible({ timeout: 20_000 });
    await expect(reply.getByRole('link', { name: 'A chart' })).toHaveAttribute('href', `${EVIL}/pixel.png`);
    await expect(reply.getByRole('link', { name: 'Payroll.xlsx' })).toHaveAttribute('href', `${EVIL}/payroll.xlsx`);
    await expect(reply.getByRole('link', { name: 'Payroll.xlsx' })).not.toHaveAttribute('download', /.*/);
    await expect(reply.getByRole('link', { name: 'tracker' })).toHaveAttribute('href', `${EVIL}/t.gif`);
    await expect(reply.locator('img')).toHaveCount(0);

    // The footnote: a numbered reference, a visible "Footnotes" label and the note with its back-link.
    await expect(reply.locator('sup').getByRole('link', { name: '1' })).toBeVisible();
    await expect(reply.getByText('Footnotes', { exact: true })).toBeVisible();
    await expect(reply.getByRole('listitem').filter({ hasText: 'Each January.' })).toBeVisible();
    await expect(reply.getByRole('link', { name: 'Back to reference 1' })).toBeVisible();

    await page.waitForLoadState('networkidle');
    expect(fetchedElsewhere).toEqual([]);
    expect(violations).toEqual([]);
  });
});
