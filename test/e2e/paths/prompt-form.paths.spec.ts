import { expect, test, type Page, type Request } from '@playwright/test';
import type { PromptEntry } from '../../../contract/prompt-library';
import { PROMPT_REQUIRED, TAG_REQUIRED } from '../../../contract/prompt-library-constants';
import { normaliseTags } from '../../../shared/tags';
import { promptFormErrors } from '../../../machines/prompt-form.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { apiToken, unique, userMessages, type Step } from './paths-support';
import { BLANK, INPUTS, PROMPT_TEXT, promptFormMachine, promptFormPaths as paths, useOf, type FormUse } from './prompt-form.paths-model';
import { libraryDialog, paceSaves, PROMPT_ENTRY, PromptApi, PROMPTS, savedPrompt, savedPrompts, searchOwn, toast } from './prompt-library.paths-model';
import { seededConversation } from '../helpers/seed';

/**
 * The prompt form's generated paths (machines/prompt-form.machine.ts, the model in prompt-form.paths-model.ts), for
 * each of its three uses: 'Save to Personal Prompt Library' from the person's own message (a conversation this
 * worker starts once), 'New Prompt' and 'Edit Prompt' in the Prompt Library. The account is shared: each test types
 * its own unique word into the prompt, finds its prompts in the library by that word only, and deletes what it saved
 * at its end (the worker's conversation too, once its tests are done).
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with a stub: the save's connection dropping (the form then says
 * the use's own sentence, 'Failed to save prompt' or 'Failed to update prompt').
 */
const TITLE: Record<FormUse, string> = { message: 'Save to Personal Prompt Library', new: 'New Prompt', edit: 'Edit Prompt' };
const formDialog = (page: Page, use: FormUse) => page.getByRole('dialog', { name: TITLE[use] });
const promptBox = (page: Page, use: FormUse) => formDialog(page, use).getByRole('textbox', { name: 'Prompt' });
const tagsBox = (page: Page, use: FormUse) => formDialog(page, use).getByRole('textbox', { name: 'Tags' });
const isSave = (r: Request) => ['POST', 'PUT'].includes(r.method()) && (PROMPTS(new URL(r.url())) || PROMPT_ENTRY(new URL(r.url())));

/** What one test has in hand: the form as it should be, the saves sent, what the test saved. */
interface Run {
  page: Page;
  api: PromptApi;
  use: FormUse;
  word: string;
  prompt: string;
  tagsText: string;
  promptError: string | null;
  tagsError: string | null;
  saves: Request[];
  /** The save the next step answers. */
  pending: Promise<Request> | null;
}

/** The model's words as typed: the prompt carries the test's word (its search finds it), surrounding spaces trimmed. */
const typed = (run: Run, text: string) => (text === PROMPT_TEXT ? `  ${PROMPT_TEXT} ${run.word}  ` : text);

/** The form as the person sees it: what is typed, each field's sentence or none. */
async function expectForm(run: Run) {
  const { page, use } = run;
  await expect(formDialog(page, use)).toBeVisible();
  await expect(promptBox(page, use)).toHaveValue(run.prompt);
  await expect(tagsBox(page, use)).toHaveValue(run.tagsText);
  for (const sentence of [PROMPT_REQUIRED, TAG_REQUIRED]) {
    const shown = sentence === run.promptError || sentence === run.tagsError;
    await expect(formDialog(page, use).getByText(sentence)).toHaveCount(shown ? 1 : 0);
  }
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, use } = run;
  switch (event.type) {
    case 'field.prompt':
      // Typing in a field clears its sentence (the other field's stays).
      run.prompt = typed(run, event.text as string);
      run.promptError = null;
      await promptBox(page, use).fill(run.prompt);
      await expectForm(run);
      return;
    case 'field.tags':
      run.tagsText = typed(run, event.text as string);
      run.tagsError = null;
      await tagsBox(page, use).fill(run.tagsText);
      await expectForm(run);
      return;
    case 'form.submit': {
      const errors = promptFormErrors(run.prompt, run.tagsText);
      const sent = run.saves.length;
      if (errors.promptError || errors.tagsError) {
        // Refused in the form with the server's own sentences; nothing is sent, what was typed stays.
        await formDialog(page, use).getByRole('button', { name: 'Save' }).click();
        Object.assign(run, errors);
        await expectForm(run);
        expect(run.saves).toHaveLength(sent);
        return;
      }
      const matches = use === 'edit' ? PROMPT_ENTRY : PROMPTS;
      if (next?.type === 'xstate.error.actor.savePrompt') {
        await page.route(matches, (route) => (['POST', 'PUT'].includes(route.request().method()) ? route.abort('connectionfailed') : route.fallback()));
      }
      run.pending = page.waitForRequest(isSave);
      await formDialog(page, use).getByRole('button', { name: 'Save' }).click();
      // What is sent: the text trimmed, the tags split at commas, trimmed, empties and repeats dropped.
      const request = await run.pending;
      expect(request.method()).toBe(use === 'edit' ? 'PUT' : 'POST');
      expect(request.postDataJSON()).toEqual({ prompt: run.prompt.trim(), tags: normaliseTags([run.tagsText]) });
      // A path may end here: the server then saves it.
      if (!next) await perform(run, { type: 'xstate.done.actor.savePrompt' }, undefined);
      return;
    }
    case 'xstate.done.actor.savePrompt': {
      const response = await (await run.pending!)!.response();
      const entry = ((await response!.json()) as { data: PromptEntry }).data;
      run.api.created.add(entry.id);
      await expect(toast(page, INPUTS[use].texts.saved)).toBeVisible();
      await expect(formDialog(page, use)).toHaveCount(0);
      if (use !== 'message') {
        // In the library: a new prompt on top (of what the test's word finds), an edited one in place.
        await expect(savedPrompts(page)).toHaveCount(1);
        const item = savedPrompt(page, run.prompt.trim());
        await expect(item).toBeVisible();
        await expect(item.getByRole('button', { name: /^Prompts tagged / })).toHaveText(normaliseTags([run.tagsText]));
      }
      return;
    }
    case 'xstate.error.actor.savePrompt':
      // The use's own sentence; the form stays with what was typed, ready to save again.
      await expect(toast(page, INPUTS[use].texts.failed)).toBeVisible();
      await expectForm(run);
      await expect(formDialog(page, use).getByRole('button', { name: 'Save' })).toBeEnabled();
      await page.unroute(use === 'edit' ? PROMPT_ENTRY : PROMPTS);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** 'field.prompt(blank) → form.submit': paths of one use differ by payload. */
const stepName = (e: Step) => {
  if (e.type === 'field.prompt') return `${e.type}(${e.text === BLANK ? 'blank' : 'text'})`;
  if (e.type === 'field.tags') return `${e.type}(${normaliseTags([e.text as string]).length ? 'tags' : 'only commas'})`;
  return e.type;
};



/** This worker's conversation, whose question the 'message' paths save (started on the first of them). */
const message = INPUTS.message.prompt + ` ${unique('for').replace(' ', '-')}`;
let conversation: { id: string; token: string } | null = null;

test.describe('prompt-form paths (generated from machines/prompt-form.machine.ts)', () => {
  test.afterAll(async ({ playwright, baseURL }) => {
    console.log(formatCoverage('prompt-form (e2e paths)', coverageOf(promptFormMachine, paths as never), paths.length));
    if (conversation) {
      const request = await playwright.request.newContext({ baseURL });
      const res = await request.delete(`/api/v1/chat/conversations/${conversation.id}`, { headers: { Authorization: `Bearer ${conversation.token}` } });
      expect(res.ok()).toBe(true);
      await request.dispose();
      conversation = null;
    }
  });

  for (const path of paths) {
    const use = useOf(path.input);
    test(`${use}: ${path.events.map(stepName).join(' → ')}`, async ({ page, request }) => {
      if (use === 'message' && !conversation) {
        test.setTimeout(90_000);
        const token = await apiToken(request);
        conversation = { id: await seededConversation(request, message), token };
      }
      await paceSaves(page);
      await signInAndLand(page, accounts.user, /\/chat$/);
      const api = await PromptApi.of(page, request);
      const word = unique('plx').replace(' ', '');
      const run: Run = { page, api, use, word, prompt: '', tagsText: '', promptError: null, tagsError: null, saves: [], pending: null };
      page.on('request', (r) => {
        if (isSave(r)) run.saves.push(r);
      });
      try {
        // The path starts with the form open, as each use opens it.
        if (use === 'message') {
          await page.goto(`/chat?id=${conversation!.id}`);
          const mine = userMessages(page).first();
          await expect(mine).toContainText(message);
          await mine.hover();
          await mine.getByRole('button', { name: 'Save to prompt library' }).click();
          run.prompt = message;
        } else {
          const [saved] = use === 'edit' ? await api.save([{ prompt: `Summarise the minutes ${word}`, tags: ['work'] }]) : [];
          await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
          await searchOwn(page, word, saved ? 1 : 0);
          if (saved) {
            await savedPrompt(page, saved.prompt).getByRole('button', { name: 'Edit prompt' }).click();
            run.prompt = saved.prompt;
            run.tagsText = saved.tags.join(', ');
          } else {
            await expect(libraryDialog(page).getByText('No prompts found')).toBeVisible();
            await libraryDialog(page).getByRole('button', { name: 'New Prompt' }).click();
          }
        }
        await expectForm(run);
        for (const [i, event] of path.events.entries()) {
          await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        await api.cleanUp();
      }
    });
  }
});
