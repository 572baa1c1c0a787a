import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { ENTRY_TAG } from '../../scripts/classic-chunks-plugin';

// Opening a conversation in a new tab: its messages are requested while the app boots, not after the chat
// screen's code has loaded and rendered (that waterfall cost most of the time to the last message on screen).

const MESSAGES_PATH = /\/api\/v1\/chat\/conversations\/[^/]+\/messages$/;
const isMessagesCall = (r: Request) => r.method() === 'GET' && MESSAGES_PATH.test(new URL(r.url()).pathname);
/** The chat route's own chunk (routes.tsx loads src/features/chat/chat-page.tsx lazily). */
const CHAT_SCREEN_CHUNK = /\/assets\/chat-page-[\w.-]+\.js$/;
/** How long the chat screen's code is held back at most, waiting for the messages request. */
const HOLD_MS = 5_000;

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** A new conversation of one question and its whole reply, in `page`; its address and question. */
async function conversationWithReply(page: Page): Promise<{ conversationUrl: string; question: string }> {
  await signInAndLand(page, accounts.user, /\/chat$/);
  const question = `Open me early ${Math.random().toString(36).slice(2, 8)}`;
  await messageBox(page).fill(question);
  await messageBox(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\?id=/);
  await expect(page.getByRole('article', { name: 'Assistant message' }).last()).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
  return { conversationUrl: page.url(), question };
}

test('a tab opened on a conversation asks for its messages before the chat screen has loaded, once', async ({ page, context }) => {
  // A whole offline reply is written first.
  test.setTimeout(90_000);
  const { conversationUrl, question } = await conversationWithReply(page);

  // A second tab of the same person (same session in storage).
  const tab = await context.newPage();
  const messageCalls: Request[] = [];
  let sawMessagesCall: () => void = () => undefined;
  const messagesRequested = new Promise<boolean>((resolve) => (sawMessagesCall = () => resolve(true)));
  tab.on('request', (r) => {
    if (!isMessagesCall(r)) return;
    messageCalls.push(r);
    sawMessagesCall();
  });
  // The chat screen's code is held back until the messages have been asked for (or HOLD_MS has passed).
  let requestedBeforeScreen: boolean | null = null;
  await tab.route(CHAT_SCREEN_CHUNK, async (route) => {
    const requested = await Promise.race([messagesRequested, new Promise<boolean>((r) => setTimeout(() => r(false), HOLD_MS))]);
    requestedBeforeScreen ??= requested;
    await route.continue();
  });

  await tab.goto(conversationUrl);
  // A tab without HTTP cache (routing turns it off) on a busy machine: more than the default 7 s.
  await expect(tab.getByRole('article', { name: 'Your message' })).toContainText(question, { timeout: 30_000 });
  await expect(tab.getByRole('article', { name: 'Assistant message' })).toHaveCount(1);
  expect(requestedBeforeScreen, 'the messages were requested while the chat screen was still loading').toBe(true);
  expect(messageCalls, 'one request for the messages: the chat screen took the early one').toHaveLength(1);
  await tab.close();
});

test('a signed-in visitor’s chat screen code is asked for beside the app’s entry, not once the entry has run', async ({ page, context }) => {
  await signInAndLand(page, accounts.user, /\/chat$/);
  const html = await (await page.request.get('/chat')).text();
  // The chunk loader's tag names the entry chunk (scripts/classic-chunks-plugin.ts).
  const entry = ENTRY_TAG.exec(html)?.[2];
  expect(entry, 'index.html names the app entry').toBeTruthy();

  const tab = await context.newPage();
  let sawScreenCode: () => void = () => undefined;
  const screenCodeRequested = new Promise<boolean>((resolve) => (sawScreenCode = () => resolve(true)));
  tab.on('request', (r) => CHAT_SCREEN_CHUNK.test(r.url()) && sawScreenCode());
  // The entry is held back until the chat screen's code has been asked for (or HOLD_MS has passed).
  let requestedBeforeEntry: boolean | null = null;
  await tab.route((url) => url.pathname === `/${entry}`, async (route) => {
    const requested = await Promise.race([screenCodeRequested, new Promise<boolean>((r) => setTimeout(() => r(false), HOLD_MS))]);
    requestedBeforeEntry ??= requested;
    await route.continue();
  });
  await tab.goto('/chat');
  await expect(tab.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
  expect(requestedBeforeEntry, 'the chat screen code was asked for while the entry was still loading').toBe(true);
  await tab.close();
});

test('a signed-out visitor opening a conversation is sent to Login without asking for it', async ({ page }) => {
  const messageCalls: string[] = [];
  page.on('request', (r) => isMessagesCall(r) && messageCalls.push(r.url()));
  await page.goto('/chat?id=00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  expect(messageCalls).toEqual([]);
});

/**
 * Runs in the page before its scripts: notes, as the DOM changes, whether the chat screen was ever drawn without
 * messages, whether the messages' spinner was ever shown, and whether the conversation panel was drawn before or with
 * them (it comes a frame after).
 */
function watchChatScreen() {
  const seen = { screenWithoutMessages: false, spinner: false, panelNotAfterMessages: false, messages: false };
  (window as unknown as { chatScreenSeen: typeof seen }).chatScreenSeen = seen;
  new MutationObserver(() => {
    const screen = document.querySelector('section[aria-label="Chat"]');
    const messages = document.querySelector('article') !== null;
    if (screen && !messages) seen.screenWithoutMessages = true;
    if ([...document.querySelectorAll('[role="status"]')].some((s) => s.textContent === 'Loading messages')) seen.spinner = true;
    if (document.querySelector('nav[aria-label="Conversations"]') && !seen.messages) seen.panelNotAfterMessages = true;
    seen.messages ||= messages;
  }).observe(document, { childList: true, subtree: true });
}

const chatScreenSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { chatScreenSeen: Record<string, boolean> }).chatScreenSeen);

/** Holds back the answer to the conversation's messages request by `ms`. */
const delayMessages = (page: Page, ms: number) =>
  page.route(
    (url) => MESSAGES_PATH.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.fulfill({ response });
    },
  );

/** The conversation opened in a new tab whose messages' answer is held back by `delayMs`, watched by watchChatScreen. */
async function openWatched(context: BrowserContext, conversationUrl: string, delayMs: number): Promise<Page> {
  const tab = await context.newPage();
  await tab.addInitScript(watchChatScreen);
  await delayMessages(tab, delayMs);
  await tab.goto(conversationUrl);
  return tab;
}

/**
 * Runs in the page before its scripts: the answer to the conversation's messages request is handed to the app only
 * `afterMs` after the chat screen's code has arrived. Done in the page, not with a Playwright route, so that on a busy
 * machine the hold is timed by the same event loop as the screen's own wait (routes.tsx): a route's answer crosses
 * two processes, which took more than the screen's 500 ms once under load.
 */
function holdMessagesUntilScreenCode({ afterMs, chunk, messages }: { afterMs: number; chunk: string; messages: string }) {
  const chunkPattern = new RegExp(chunk);
  const messagesPattern = new RegExp(messages);
  let codeArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (codeArrived = resolve));
  new PerformanceObserver((list) => {
    if (list.getEntries().some((entry) => chunkPattern.test(entry.name))) codeArrived();
  }).observe({ type: 'resource', buffered: true });
  const fetchFromNetwork = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await fetchFromNetwork(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (messagesPattern.test(url.pathname)) {
      await arrived;
      await new Promise((resolve) => setTimeout(resolve, afterMs));
    }
    return response;
  };
}

test('a tab opened on a conversation draws the chat screen once, with its messages, and the conversation panel after them', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { conversationUrl, question } = await conversationWithReply(page);
  // The messages come a little after the screen's code: the screen waits for them rather than show a spinner.
  const tab = await context.newPage();
  await tab.addInitScript(watchChatScreen);
  await tab.addInitScript(holdMessagesUntilScreenCode, {
    afterMs: 150,
    chunk: CHAT_SCREEN_CHUNK.source,
    messages: MESSAGES_PATH.source,
  });
  await tab.goto(conversationUrl);
  await expect(tab.getByRole('article', { name: 'Your message' })).toContainText(question, { timeout: 30_000 });
  await expect(tab.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
  expect(await chatScreenSeen(tab)).toEqual({ screenWithoutMessages: false, spinner: false, panelNotAfterMessages: false, messages: true });
  await tab.close();
});

test('a slow answer does not hold the chat screen back: it shows the spinner until the messages come', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { conversationUrl, question } = await conversationWithReply(page);
  const tab = await openWatched(context, conversationUrl, 8_000);
  await expect(tab.getByRole('status').filter({ hasText: 'Loading messages' })).toBeVisible({ timeout: 7_000 });
  await expect(tab.getByRole('article', { name: 'Your message' })).toContainText(question, { timeout: 30_000 });
  await tab.close();
});
