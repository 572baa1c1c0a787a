import { expect, test, type Page } from '@playwright/test';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import {
  assistantMessages,
  conversationNav,
  expectReplyComplete,
  messageBox,
  revealConversationLink,
  signedInToken,
  unique,
} from './paths/paths-support';
import { seededConversation } from './helpers/seed';

// Issue 28, "Focus" and "Small things": where the keyboard is after each step of a day's chatting, Send refusing
// a blank box, a prompt pasted at the cursor, Escape in the Tips modal, and /tips-example behind sign-in.

const sendButton = (page: Page) => page.getByRole('button', { name: 'Send message' });
const tipsDialog = (page: Page) => page.getByRole('dialog', { name: 'Tips' });

/** Signs the e2e user in and opens the chat (where sign-in lands is tested elsewhere). */
async function signInToChat(page: Page) {
  await signInByApi(page, accounts.user);
  await page.goto('/chat');
  await expect(messageBox(page)).toBeVisible();
}

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Saves one prompt to the signed-in person's library through the API. */
async function savePromptByApi(page: Page, prompt: string) {
  const token = await signedInToken(page);
  const res = await page.request.post('/api/v1/prompt-libraries/', { headers: { Authorization: `Bearer ${token}` }, data: { prompt, tags: ['focus'] } });
  expect(res.status()).toBe(200);
}

/** Opens the library, finds the prompt by a word of it, and pastes it to the chat. */
async function pasteFromLibrary(page: Page, word: string) {
  await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Prompt Library' });
  await dialog.getByRole('searchbox', { name: 'Search prompts' }).fill(word);
  const items = dialog.getByRole('list', { name: 'Saved prompts' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await items.first().getByRole('button', { name: 'Paste to chat' }).click();
  await expect(dialog).toHaveCount(0);
}

test.describe('focus and the message box', () => {
  test.beforeEach(async ({ page }) => {
    await signInToChat(page);
  });

  test('the box has the focus on arrival, after a send (Enter or the Send button) and after New Chat', async ({ page }) => {
    test.slow();
    await page.goto('/chat');
    await expect(messageBox(page)).toBeFocused();

    // The first send turns the new-chat screen into the conversation: the box there has the focus.
    await messageBox(page).pressSequentially(unique('Where is the focus'));
    await messageBox(page).press('Enter');
    await expect(page).toHaveURL(/\/chat\?id=/);
    await expect(messageBox(page)).toBeFocused();
    await expectReplyComplete(page);
    await expect(messageBox(page)).toBeFocused();

    // Sent with the Send button (Stop takes its place): the focus goes back to the box, not to the page.
    await messageBox(page).fill(unique('A second question'));
    await sendButton(page).click();
    await expect(page.getByRole('button', { name: 'Stop reply' })).toBeVisible();
    await expect(messageBox(page)).toBeFocused();
    await expectReplyComplete(page);

    // A reload of the conversation: the box again.
    await page.reload();
    await expect(assistantMessages(page).first()).toBeVisible();
    await expect(messageBox(page)).toBeFocused();

    // New Chat in the conversation list, from a conversation and from the new chat itself.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
    await expect(messageBox(page)).toBeFocused();
    await page.getByRole('searchbox', { name: 'Search conversations' }).focus();
    await page.getByRole('button', { name: 'New Chat' }).click();
    await expect(messageBox(page)).toBeFocused();
  });

  test('on a phone, New chat in the header and New Chat in the drawer put the focus in the box', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const id = await seededConversation(page.request, unique('Phone focus'));
    await page.goto(`/chat?id=${id}`);
    await expect(assistantMessages(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
    await expect(messageBox(page)).toBeFocused();

    await page.goto(`/chat?id=${id}`);
    await expect(assistantMessages(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Conversations' });
    await drawer.getByRole('button', { name: 'New Chat' }).click();
    await expect(drawer).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
    await expect(messageBox(page)).toBeFocused();
  });

  test('Send is disabled while the box is empty or blank', async ({ page }) => {
    await page.goto('/chat');
    await expect(sendButton(page)).toBeDisabled();
    await messageBox(page).fill('   \n  ');
    await expect(sendButton(page)).toBeDisabled();
    await messageBox(page).fill('  a question  ');
    await expect(sendButton(page)).toBeEnabled();
    await messageBox(page).fill('');
    await expect(sendButton(page)).toBeDisabled();
    await expectNoAxeViolationsLightAndDark(page);
  });

  test('the skip link skips the conversation list and lands in the message box', async ({ page }) => {
    const id = await seededConversation(page.request, unique('Skip link'));
    await page.goto(`/chat?id=${id}`);
    await expect(assistantMessages(page).first()).toBeVisible();
    await expect(conversationNav(page).getByRole('link').first()).toBeVisible();
    // The skip link, as a keyboard user finds it first on the page, followed with Enter.
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await skip.focus();
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(messageBox(page)).toBeFocused();
  });
});

test.describe('renaming a conversation in the list', () => {
  test('Escape cancels and keeps the focus on the row; a click elsewhere saves', async ({ page }) => {
    await signInToChat(page);
    const title = unique('Rename focus');
    const id = await seededConversation(page.request, title);
    await page.goto(`/chat?id=${id}`);
    const link = await revealConversationLink(page, id);
    const row = conversationNav(page).getByRole('listitem').filter({ has: page.locator(`[href="/chat?id=${encodeURIComponent(id)}"]`) });
    const before = (await link.innerText()).trim();

    // Escape: the title stays, and the keyboard is on the row's Rename button again (not on the page's body).
    await row.hover();
    await row.getByRole('button', { name: /^Rename / }).click();
    const field = conversationNav(page).getByRole('textbox', { name: 'Conversation title' });
    await field.fill('Thrown away');
    await field.press('Escape');
    await expect(field).toHaveCount(0);
    await expect(row.getByRole('button', { name: `Rename ${before}` })).toBeFocused();
    await expect(link).toHaveText(before);

    // Enter from there starts another rename; a click elsewhere saves what was typed.
    await page.keyboard.press('Enter');
    const renamed = unique('Clicked away');
    await field.fill(renamed);
    await page.getByRole('heading', { level: 1 }).click();
    await expect(page.getByText('Conversation renamed successfully')).toBeVisible();
    await expect(link).toHaveText(renamed);
    // Saved on the server, not only on screen.
    await page.reload();
    await expect(await revealConversationLink(page, id)).toHaveText(renamed);
  });
});

test.describe('code that scrolls', () => {
  test('a code block wider than the column is reachable and scrollable with the keyboard', async ({ page }) => {
    await signInToChat(page);
    const id = await seededConversation(page.request, unique('Scrolling code'));
    await page.goto(`/chat?id=${id}`);
    const code = assistantMessages(page).first().locator('pre');
    await expect(code).toBeVisible();
    // Wide enough for the code: no extra stop for the keyboard.
    await expect(code).not.toHaveAttribute('tabindex', '0');
    // On a narrow phone the reply's code scrolls sideways: a named region in the Tab order.
    await page.setViewportSize({ width: 320, height: 700 });
    const region = assistantMessages(page).first().getByRole('region', { name: /code, scrolls sideways/ });
    await expect(region).toHaveAttribute('tabindex', '0');
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await expectNoAxeViolationsLightAndDark(page);
  });
});

test.describe('Paste to chat', () => {
  test('inserts the prompt at the cursor, keeping what was typed', async ({ page }) => {
    await signInToChat(page);
    const word = unique('cursorword').split(' ')[1]!;
    const prompt = `Summarise ${word} for a manager`;
    await savePromptByApi(page, prompt);
    await page.goto('/chat');
    await messageBox(page).fill('Before. After.');
    // The cursor after "Before. ".
    await messageBox(page).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(8, 8));
    await pasteFromLibrary(page, word);
    await expect(page.getByText('Prompt pasted to chat')).toBeVisible();
    await expect(messageBox(page)).toHaveValue(`Before. ${prompt}After.`);
    await expect(messageBox(page)).toBeFocused();
    // The cursor waits after the pasted text: typing goes on from there.
    await page.keyboard.type(' ');
    await expect(messageBox(page)).toHaveValue(`Before. ${prompt} After.`);

    // A selection is replaced by the prompt.
    await messageBox(page).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 7));
    await pasteFromLibrary(page, word);
    await expect(messageBox(page)).toHaveValue(`${prompt} ${prompt} After.`);
  });

  test('a prompt that would make the message too long is not pasted, and says so', async ({ page }) => {
    await signInToChat(page);
    const word = unique('toolongword').split(' ')[1]!;
    await savePromptByApi(page, `Explain ${word} in detail`);
    await page.goto('/chat');
    // Near the 100,000 characters a message may have.
    const typed = 'x'.repeat(99_990);
    await messageBox(page).fill(typed);
    await pasteFromLibrary(page, word);
    await expect(page.getByText('Failed to paste prompt to chat')).toBeVisible();
    await expect(page.getByText('Prompt pasted to chat')).toHaveCount(0);
    expect(await messageBox(page).inputValue()).toBe(typed);
  });
});

test.describe('Tips and /tips-example', () => {
  test('Escape closes the Tips modal from its Level select at the first press', async ({ page }) => {
    await signInToChat(page);
    await page.getByRole('button', { name: 'Tips', exact: true }).click();
    const dialog = tipsDialog(page);
    await expect(dialog.getByRole('list', { name: 'Tips' }).locator('> li').first()).toBeVisible();
    // A level chosen with the keyboard: the focus is back on the select, its list closed.
    const level = dialog.getByRole('button', { name: /Level/ });
    await level.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.getByRole('option', { name: 'Advanced', exact: true }).click();
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await expect(level).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Tips', exact: true })).toBeFocused();
  });

  test('/tips-example asks a signed-out visitor to sign in first', async ({ page }) => {
    await page.goto('/tips-example');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(tipsDialog(page)).toHaveCount(0);
  });
});
