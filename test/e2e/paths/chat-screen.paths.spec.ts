import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEFAULT_CONVERSATION_TITLE, MESSAGE_MAX_LENGTH } from '../../../contract/chat-constants';
import { DOCUMENT_DELETED, DOCUMENT_UPLOADED } from '../../../contract/documents-constants';
import { PROMPT_SAVED_TO_LIBRARY } from '../../../contract/prompt-library-constants';
import { NO_CONVERSATION_SELECTED } from '../../../machines/chat-screen.machine';
import { CONNECTION_FAILED_TITLE, MESSAGES_REFRESHED } from '../../../machines/chat-send.machine';
import { DELETED, RENAMED } from '../../../machines/conversation-list.machine';
import { PASTE_PROMPT_FAILED, PROMPT_PASTED } from '../../../machines/prompt-library.machine';
import { TITLE_POLL_INTERVAL_MS } from '../../../machines/title-poll.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, signInByApi } from '../helpers/accounts';
import { firstLongQuestion, longConversation, seededConversation } from '../helpers/seed';
import { chatScreenMachine, chatScreenPaths as paths, LONG, NEW, POLL_DONE, SEEDED, TOO_LONG } from './chat-screen.paths-model';
import {
  ask,
  assistantMessages,
  conversationLink,
  conversationNav,
  expectReplyComplete,
  messageBox,
  openConversationId,
  signedInToken,
  skipWithoutWebSearch,
  unique,
  userMessages,
  type Step,
} from './paths-support';

/**
 * The chat screen's generated paths (machines/chat-screen.machine.ts, the model in chat-screen.paths-model.ts),
 * driven through the real chat page: the person's clicks on the header, the input box, the sidebar, the drawer (a
 * phone-sized window) and the modals, and what the screen's children report back (a conversation created, a reply
 * ended, a file attached, the list's toasts), each checked as the person sees it. Replies, links, uploads and
 * titles are the real server's; a title poll's 20 s pass on Playwright's clock.
 *
 * Forced in the browser, so generated locally and against a deployment alike: an edited question's send failing (the
 * request aborted, so Refresh message is offered), a change of package (the app's reload of the person, GET
 * /users/me, held until the step and answered without image generation), a prompt too long for the box (a draft
 * near the message limit typed first).
 *
 * Scrolling up in a conversation of more than one page of messages (`messages.loadEarlier`): seeded into the local
 * database, asked once through the API on a deployment and kept there (test/e2e/helpers/seed.ts longConversation).
 *
 * Not generated: Load more in the sidebar and in its search results (`list.loadMore`, `search.loadMore`: more than
 * a page, ten, of the person's conversations, which on a deployment means eleven real replies a run; the
 * conversation-list paths drive both). Every conversation, prompt and document a path makes is deleted after it.
 */
const SEND = '**/api/v1/chat/messages*';
const ME = (url: URL) => url.pathname.endsWith('/api/v1/users/me');
const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };
const FILE = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Quarterly figures: 42.') };

/** What one browser test has in hand: the real ids behind the model's, what it made (to delete), what it asked. */
interface World {
  ids: Map<string, string>;
  word: string;
  title: string;
  question: string;
  /** The seeded conversation's question. */
  asked: string;
  libraryPrompt: string;
  prompts: Set<string>;
  documents: Set<string>;
  releaseMe: () => void;
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const features = (page: Page) => page.getByRole('button', { name: /^Features/ });
const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share Conversation' });
const libraryDialog = (page: Page) => page.getByRole('dialog', { name: 'Prompt Library' });
const saveDialog = (page: Page) => page.getByRole('dialog', { name: 'Save to Personal Prompt Library' });
const deleteDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Delete Conversation' });
const attached = (page: Page) => page.getByRole('list', { name: 'Attached files' });
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();
const item = (page: Page, id: string) => conversationNav(page).getByRole('listitem').filter({ has: page.locator(`a[href="/chat?id=${id}"]`) });

/** Ids in an API answer (an upload's documents), for deleting what the path stored. */
function idsIn(value: unknown, into: Set<string>) {
  if (Array.isArray(value)) value.forEach((v) => idsIn(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'string') into.add(v);
      else idsIn(v, into);
    }
  }
}

async function chooseFeature(page: Page, name: 'Web Browsing' | 'Image Generation') {
  await features(page).click();
  await page.getByRole('menuitemcheckbox', { name }).click();
  await expect(page.getByRole('menu')).toHaveCount(0);
}

/** What a person does for each generated event, and what the screen then shows; `next` tells how it should end. */
async function perform(page: Page, w: World, event: Step, next: Step | undefined) {
  switch (event.type) {
    case 'share.open':
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      if (openConversationId(page) === null) {
        await expect(toast(page, NO_CONVERSATION_SELECTED)).toBeVisible();
        await expect(shareDialog(page)).toHaveCount(0);
      } else {
        await expect(shareDialog(page).getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/share\//);
      }
      return;
    case 'share.close':
      await page.keyboard.press('Escape');
      await expect(shareDialog(page)).toHaveCount(0);
      return;
    case 'prompts.open':
      // The prompt that would not fit: a draft near the message limit is in the box first.
      if (next?.type === 'prompt.pasted' && next.text === TOO_LONG) {
        await messageBox(page).fill('x'.repeat(MESSAGE_MAX_LENGTH - 5));
      }
      await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
      await expect(libraryDialog(page).getByRole('listitem', { name: w.libraryPrompt })).toBeVisible();
      return;
    case 'prompts.close':
      await page.keyboard.press('Escape');
      await expect(libraryDialog(page)).toHaveCount(0);
      return;
    case 'prompt.pasted':
      await libraryDialog(page).getByRole('listitem', { name: w.libraryPrompt }).getByRole('button', { name: 'Paste to chat' }).click();
      await expect(libraryDialog(page)).toHaveCount(0);
      return;
    case 'composer.filled':
      await expect(toast(page, PROMPT_PASTED)).toBeVisible();
      await expect(messageBox(page)).toHaveValue(w.libraryPrompt);
      await expect(messageBox(page)).toBeFocused();
      return;
    case 'composer.fillFailed':
      await expect(toast(page, PASTE_PROMPT_FAILED)).toBeVisible();
      // What was typed is kept as it was.
      expect((await messageBox(page).inputValue()).length).toBe(MESSAGE_MAX_LENGTH - 5);
      await messageBox(page).fill('');
      return;
    case 'option.toggle': {
      const name = event.feature === 'browsing' ? 'Web Browsing' : 'Image Generation';
      await chooseFeature(page, name);
      await expect(features(page)).toContainText(name);
      return;
    }
    case 'reasoning.toggle': {
      const medium = await page.getByRole('button', { name: 'Reasoning: Medium' }).isVisible();
      await page.getByRole('button', { name: /^Reasoning: / }).click();
      await page.getByRole('menu', { name: /Reasoning/ }).getByRole('menuitemradio', { name: medium ? /Low/ : /Medium/ }).click();
      await expect(page.getByRole('button', { name: medium ? 'Reasoning: Low' : 'Reasoning: Medium' })).toBeVisible();
      return;
    }
    case 'entitlements.changed':
      // The app's reload of the person answers now, with a package without image generation: no features menu,
      // web browsing alone as a toggle.
      w.releaseMe();
      await expect(features(page)).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Web browsing' })).toBeVisible();
      return;
    case 'files.add':
      await page.locator('input[type="file"]').setInputFiles(FILE);
      return;
    case 'attachments.changed':
      if (event.attaching) {
        // Attaching: Send waits.
        await expect(page.getByText('Uploading', { exact: false }).first()).toBeVisible();
        await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();
      } else if ((event.documentIds as string[]).length) {
        await expect(attached(page).getByText(FILE.name)).toBeVisible({ timeout: 60_000 });
        await expect(page.getByRole('button', { name: `Delete ${FILE.name}` })).toBeEnabled();
      } else {
        await expect(attached(page)).toHaveCount(0);
      }
      return;
    case 'documents.changed':
      // The batch ended in the open conversation: its documents list has the file.
      await expect(toast(page, DOCUMENT_UPLOADED)).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('button', { name: /^\d+ Documents?$/ })).not.toHaveAccessibleName('0 Documents');
      return;
    case 'file.delete':
      await page.getByRole('button', { name: `Delete ${FILE.name}` }).click();
      await expect(toast(page, DOCUMENT_DELETED)).toBeVisible();
      return;
    case 'message.submit':
      w.question = unique(openConversationId(page) === null ? 'Explain quarterly budgets' : 'Summarise the attached notes');
      await ask(page, w.question);
      await expect(userMessages(page).last()).toContainText(w.question);
      return;
    case 'documents.sent':
      // The question carries the file it was sent with.
      await expect(userMessages(page).last()).toContainText(FILE.name);
      return;
    case 'conversation.created':
      await expect(page).toHaveURL(/\/chat\?id=/);
      w.ids.set(NEW, openConversationId(page)!);
      return;
    case 'route.changed':
      if (event.conversationId === null) {
        await expect(page).toHaveURL(/\/chat$/);
        await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
        await expect(messageBox(page)).toBeFocused();
      } else {
        const id = w.ids.get(event.conversationId as string)!;
        await expect(conversationLink(page, id)).toBeVisible();
        await expect(conversationLink(page, id)).toHaveAttribute('aria-current', 'page');
      }
      return;
    case 'exchange.completed':
      await expectReplyComplete(page);
      await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible();
      if (event.messageCount === 4) await expect(assistantMessages(page)).toHaveCount(2);
      return;
    case 'xstate.done.actor.titlePoll': {
      // The person waits; 20 s on, the poll asks the server for the name (a deployment's model may take longer).
      await expect(async () => {
        await page.clock.fastForward(TITLE_POLL_INTERVAL_MS);
        await expect(heading(page)).not.toHaveText(DEFAULT_CONVERSATION_TITLE, { timeout: 2_000 });
      }).toPass({ timeout: 60_000 });
      if (openConversationId(page) === w.ids.get(SEEDED)) await expect(heading(page)).toHaveText(w.title);
      return;
    }
    case 'message.edit': {
      if (next?.type === 'messages.refresh') await page.route(SEND, (route) => route.abort('connectionfailed'));
      const first = userMessages(page).first();
      await first.hover();
      await first.getByRole('button', { name: 'Edit message' }).click();
      await page.getByRole('textbox', { name: 'Edit message' }).fill(unique('Edited question'));
      await page.getByRole('button', { name: 'Save & Send' }).click();
      await expect(assistantMessages(page).last()).toContainText(CONNECTION_FAILED_TITLE);
      return;
    }
    case 'messages.refresh':
      await page.unroute(SEND);
      await page.getByRole('button', { name: 'Refresh message' }).click();
      await expect(toast(page, MESSAGES_REFRESHED)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Refresh message' })).toHaveCount(0);
      // The failed edit never reached the server: the question is as it was.
      await expect(userMessages(page).first()).toContainText(w.word);
      return;
    case 'message.regenerate': {
      const reply = assistantMessages(page).last();
      await reply.hover();
      await reply.getByRole('button', { name: 'Regenerate reply' }).click();
      await expect(assistantMessages(page).last()).toHaveAttribute('aria-busy', 'true');
      return;
    }
    case 'reply.stop':
      await page.getByRole('button', { name: 'Stop reply' }).click({ timeout: 30_000 });
      await expect(assistantMessages(page).last().getByText('Stopped', { exact: true })).toBeVisible({ timeout: 30_000 });
      return;
    case 'search.change':
      await page.getByRole('searchbox', { name: 'Search conversations' }).fill(w.word);
      await expect(conversationNav(page).getByRole('link')).toHaveCount(1);
      await expect(conversationLink(page, w.ids.get(SEEDED)!)).toBeVisible();
      return;
    case 'conversation.rename': {
      w.title = `Renamed ${w.word}`;
      await item(page, w.ids.get(SEEDED)!).getByRole('button', { name: /^Rename / }).click();
      await page.getByRole('textbox', { name: 'Conversation title' }).fill(w.title);
      await page.getByRole('textbox', { name: 'Conversation title' }).press('Enter');
      await expect(conversationLink(page, w.ids.get(SEEDED)!)).toHaveText(w.title);
      return;
    }
    case 'notice.show':
      await expect(toast(page, event.text as string)).toBeVisible();
      if (event.text === RENAMED) await expect(heading(page)).toHaveText(w.title);
      return;
    case 'conversation.askDelete':
      await item(page, w.ids.get(SEEDED)!).getByRole('button', { name: /^Delete / }).click();
      await expect(deleteDialog(page)).toContainText(`Delete "${w.title}"? This cannot be undone.`);
      return;
    case 'conversation.cancelDelete':
      await deleteDialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(deleteDialog(page)).toHaveCount(0);
      await expect(conversationLink(page, w.ids.get(SEEDED)!)).toBeVisible();
      return;
    case 'conversation.delete':
      await deleteDialog(page).getByRole('button', { name: 'Delete' }).click();
      return;
    case 'conversation.deleted':
      await expect(toast(page, DELETED)).toBeVisible();
      await expect(conversationLink(page, w.ids.get(SEEDED)!)).toHaveCount(0);
      return;
    case 'prompt.saveOpen': {
      const first = userMessages(page).first();
      await first.hover();
      await first.getByRole('button', { name: 'Save to prompt library' }).click();
      await expect(saveDialog(page).getByRole('textbox', { name: 'Prompt' })).toHaveValue(w.asked);
      return;
    }
    case 'prompt.saveClose':
      await saveDialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(saveDialog(page)).toHaveCount(0);
      return;
    case 'xstate.done.actor.savePrompt':
      await expect(saveDialog(page)).toHaveCount(0);
      return;
    case 'panel.collapse':
      await page.getByRole('button', { name: 'Hide conversations' }).click();
      await expect(page.getByRole('complementary', { name: 'Conversation list' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Show conversations' })).toBeVisible();
      return;
    case 'panel.expand':
      await page.getByRole('button', { name: 'Show conversations' }).click();
      await expect(conversationNav(page)).toBeVisible();
      return;
    case 'drawer.open':
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('dialog', { name: 'Conversations' })).toBeVisible();
      return;
    case 'drawer.close':
      await page.getByRole('dialog', { name: 'Conversations' }).getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('dialog', { name: 'Conversations' })).toHaveCount(0);
      await page.setViewportSize(DESKTOP);
      return;
    case 'messages.loadEarlier':
      await expect(firstLongQuestion(page)).toHaveCount(0);
      await expect(async () => {
        await page.getByTestId('message-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
        await expect(firstLongQuestion(page)).toBeInViewport({ timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** The next model event's own step, joined with the one before when the browser does both at once. */
async function saveStep(page: Page, event: Step) {
  // 'Save' in the form: the toast (the form's report) comes before the form closes.
  if (event.type === 'notice.show' && event.text === PROMPT_SAVED_TO_LIBRARY) {
    await saveDialog(page).getByRole('textbox', { name: 'Tags' }).fill('paths');
    await saveDialog(page).getByRole('button', { name: 'Save' }).click();
  }
}

async function deleteQuietly(request: APIRequestContext, token: string, path: string) {
  await request.delete(`/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

test.describe('chat-screen paths (generated from machines/chat-screen.machine.ts)', () => {
  let made: { token: string; w: World } | null = null;

  test.afterEach(async ({ request }) => {
    if (!made) return;
    const { token, w } = made;
    made = null;
    for (const [model, id] of w.ids) {
      // The long conversation a deployment keeps (test/e2e/helpers/seed.ts).
      if (model !== LONG || isLocalServer) await deleteQuietly(request, token, `/chat/conversations/${id}`);
    }
    for (const id of w.prompts) await deleteQuietly(request, token, `/prompt-libraries/${id}`);
    for (const id of w.documents) await deleteQuietly(request, token, `/documents/${id}`);
  });

  test.afterAll(() => {
    console.log(formatCoverage('chat-screen (e2e paths)', coverageOf(chatScreenMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(`${path.input.conversationId ?? 'new chat'}: ${path.description}`, async ({ page }) => {
      // Real replies and uploads one after another on a shared machine.
      test.setTimeout(240_000);
      await page.setViewportSize(DESKTOP);
      await signInByApi(page, accounts.user);
      const token = await signedInToken(page);
      const browses = path.events.some((e) => e.type === 'option.toggle' && e.feature === 'browsing');
      if (browses) await skipWithoutWebSearch(page);
      const word = `screen${Math.random().toString(36).slice(2, 8)}`;
      const w: World = { ids: new Map(), word, title: '', question: '', asked: '', libraryPrompt: '', prompts: new Set(), documents: new Set(), releaseMe: () => {} };
      made = { token, w };
      const types = new Set(path.events.map((e) => e.type));

      // What the path needs before the page opens: a prompt in the library, the conversation, the held reload.
      if (types.has('prompts.open')) {
        w.libraryPrompt = `Summarise this for a manager (${word})`;
        const res = await page.request.post('/api/v1/prompt-libraries/', { headers: { Authorization: `Bearer ${token}` }, data: { prompt: w.libraryPrompt, tags: ['paths'] } });
        expect(res.ok(), await res.text()).toBe(true);
        idsIn(((await res.json()) as { data: unknown }).data, w.prompts);
      }
      if (path.input.conversationId === SEEDED) {
        w.title = `Plan the ${word} offsite`;
        w.asked = w.title;
        w.ids.set(SEEDED, await seededConversation(page.request, w.title));
      }
      if (path.input.conversationId === LONG) {
        w.ids.set(LONG, await longConversation(page.request));
      }
      if (types.has('entitlements.changed')) {
        const answered = new Promise<void>((resolve) => (w.releaseMe = resolve));
        await page.route(ME, async (route) => {
          if (route.request().method() !== 'GET') return route.fallback();
          const response = await route.fetch();
          const body = (await response.json()) as { data: { features: string[] } };
          body.data.features = body.data.features.filter((f) => f !== 'image_generation');
          await answered;
          await route.fulfill({ response, json: body });
        });
      }
      // What the path stores on the way: the documents uploaded, the prompt saved.
      page.on('response', async (r) => {
        const url = new URL(r.url());
        if (r.request().method() !== 'POST' || !r.ok()) return;
        if (url.pathname.includes('/api/v1/documents/')) idsIn(await r.json().catch(() => null), w.documents);
        if (url.pathname.endsWith('/api/v1/prompt-libraries/')) idsIn(await r.json().catch(() => null), w.prompts);
      });
      if (path.events.some((e) => e.type === POLL_DONE.type)) await page.clock.install();

      const start = path.input.conversationId === null ? null : w.ids.get(path.input.conversationId)!;
      await page.goto(start ? `/chat?id=${start}` : '/chat');
      if (start) await expect(assistantMessages(page).last()).not.toBeEmpty();
      else await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
      if (path.input.conversationId === SEEDED) await expect(heading(page)).toHaveText(w.title);

      for (const [i, event] of path.events.entries()) {
        await test.step(event.type, async () => {
          await saveStep(page, event);
          await perform(page, w, event, path.events[i + 1]);
        });
      }
    });
  }
});
