import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';

// A link to a conversation the server does not have for this person (deleted, someone else's, mistyped) says so
// once, in place of the messages, with the way on; not a lone 'Failed to fetch messages' toast over an empty chat.

test('an unknown conversation id shows one clear message, no toast, and its button starts a new chat', async ({ page }) => {
  await signInAndLand(page, accounts.user, /\/chat$/);
  const id = randomUUID();
  const answered = page.waitForResponse((r) => /\/api\/v1\/chat\/conversations\/[^/]+\/messages/.test(r.url()) && r.status() === 404);
  // The header's document count asks too, and is refused the same way.
  const documentsAnswered = page.waitForResponse((r) => r.url().includes(`/api/v1/documents/?conversation_id=${id}`) && r.status() === 404);
  await page.goto(`/chat?id=${id}`);
  await answered;
  await documentsAnswered;

  await expect(page.getByRole('heading', { level: 1, name: 'Conversation not found' })).toBeVisible();
  await expect(page.getByText('It may have been deleted, or the link is wrong.')).toHaveCount(1);
  await expect(page).toHaveTitle(/Conversation not found/);
  // Nothing to type into: a message would go to a conversation that is not there.
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  // Nor anything to share, list or export.
  for (const name of ['Share', 'Export as Markdown', /Document/]) await expect(page.getByRole('button', { name })).toHaveCount(0);
  // Said once: no toast beside it (the toast came right after the failed load, so a short wait is enough).
  await page.waitForTimeout(500);
  await expect(page.getByText('Failed to fetch messages')).toHaveCount(0);
  await expect(page.getByText('Failed to fetch documents')).toHaveCount(0);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoAxeViolations(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Start a new chat' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});
