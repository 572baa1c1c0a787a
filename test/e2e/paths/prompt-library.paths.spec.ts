import { expect, test, type Page } from '@playwright/test';
import type { PromptEntry } from '../../../contract/prompt-library';
import { PROMPT_DELETED, PROMPT_SAVED, PROMPT_UPDATED } from '../../../contract/prompt-library-constants';
import {
  COPY_PROMPT_FAILED,
  DELETE_PROMPT_FAILED,
  PROMPT_DETAILS_FAILED,
  PROMPT_PASTED,
  PROMPT_SEARCH_PAGE_SIZE,
  SAVE_PROMPT_FAILED,
  UPDATE_PROMPT_FAILED,
} from '../../../machines/prompt-library.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { errorEnvelope, messageBox, unique, type Step } from './paths-support';
import {
  AFTER,
  libraryDialog,
  paceSaves,
  PROMPT_ENTRY,
  PromptApi,
  promptLibraryMachine,
  promptLibraryPaths as paths,
  PROMPTS,
  savedPrompt,
  savedPrompts,
  searchOwn,
  toast,
} from './prompt-library.paths-model';

/**
 * The prompt library's generated paths (machines/prompt-library.machine.ts, the model in
 * prompt-library.paths-model.ts), driven through the real Prompt Library modal of the chat screen (the input's
 * 'Prompt library' button). The account is shared (parallel workers, QA on staging): each test saves its own prompts
 * through the API, all with its own unique word, finds them by searching that word before it touches any, and
 * deletes what is left of them at its end.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: loading a prompt for Edit Prompt failing (a 500 on
 * GET /prompt-libraries/{id}), deleting failing (a 500 on DELETE), the clipboard refusing the text, and the form's
 * save failing (the connection dropped), whose sentence the library passes on (`notice.show`).
 *
 * Not generated: what the view does not offer — cancelling the load before Edit Prompt (no form is open yet, the
 * library shows a spinner), anything behind an open form or the Delete Prompt confirmation, cancelling a delete in
 * flight. The list's own states are the pager's (machines/pager.machine.ts); here the list events are what the
 * person does with them.
 */
const stepName = (e: Step) => (e.type === AFTER ? '2 s later' : e.type);

/** What one test has in hand: its word, its prompts (the model's p1, p2 once bound), what the open form is about. */
interface Run {
  page: Page;
  api: PromptApi;
  word: string;
  /** The test's prompts that are still saved (the list shows them newest first). */
  mine: PromptEntry[];
  bound: Map<string, PromptEntry>;
  copying: PromptEntry | null;
  editing: PromptEntry | null;
  /** Where the edited prompt stands in the list. */
  editingAt: number;
  deleting: PromptEntry | null;
  /** The tag the list is filtered by. */
  tag: string | null;
  /** View More has brought the rest. */
  all: boolean;
}

/** How many of the test's prompts the list shows: those with the tag, the first search page of them. */
const shownCount = (run: Run) => {
  const matching = run.mine.filter((p) => run.tag === null || p.tags.includes(run.tag)).length;
  return run.all ? matching : Math.min(PROMPT_SEARCH_PAGE_SIZE, matching);
};
const listedLabels = (page: Page) => savedPrompts(page).evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
const formDialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

/** The test's prompt the model calls `id`: the first (p1) or second (p2) one listed when first named. */
async function promptFor(run: Run, id: string) {
  let entry = run.bound.get(id);
  if (!entry) {
    const label = await savedPrompts(run.page).nth(id === 'p1' ? 0 : 1).getAttribute('aria-label');
    entry = run.mine.find((p) => p.prompt === label);
    expect(entry, `no prompt of this test listed as ${label}`).toBeTruthy();
    run.bound.set(id, entry!);
  }
  return entry!;
}
const itemOf = (run: Run, entry: PromptEntry) => savedPrompt(run.page, entry.prompt);

async function openLibrary(run: Run) {
  await run.page.getByRole('button', { name: 'Prompt library', exact: true }).click();
  await expect(libraryDialog(run.page)).toBeVisible();
  run.tag = null;
}

/** The form as the person sees it: title, the prompt and its tags. */
async function expectForm(page: Page, title: string, prompt: string, tagsText: string) {
  const form = formDialog(page, title);
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Prompt' })).toHaveValue(prompt);
  await expect(form.getByRole('textbox', { name: 'Tags' })).toHaveValue(tagsText);
}

/** What the open form is: a new prompt (blank) or the edit of `run.editing`. */
const openForm = (run: Run) => (run.editing ? 'Edit Prompt' : 'New Prompt');

/** A new prompt's text and tag, with the test's word (so its search shows it). */
const newPrompt = (run: Run) => ({ prompt: `Newest prompt ${run.word}`, tags: [`new-${run.word}`] });

/** Fills a blank New Prompt form (an edit keeps what was loaded, which is valid as it is). */
async function fillForm(run: Run) {
  const form = formDialog(run.page, openForm(run));
  if (run.editing || (await form.getByRole('textbox', { name: 'Prompt' }).inputValue()) !== '') return;
  await form.getByRole('textbox', { name: 'Prompt' }).fill(newPrompt(run).prompt);
  await form.getByRole('textbox', { name: 'Tags' }).fill(newPrompt(run).tags.join(', '));
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (event.type) {
    case 'prompts.search':
      await searchOwn(page, run.word, shownCount(run));
      return;
    case 'prompts.filterTag': {
      // The first prompt's first tag: only the test's prompts with that tag remain.
      const first = await promptFor(run, 'p1');
      run.tag = first.tags[0]!;
      const filtered = page.waitForResponse((r) => PROMPTS(new URL(r.url())) && new URL(r.url()).searchParams.get('tags') === run.tag);
      await itemOf(run, first).getByRole('button', { name: `Prompts tagged ${run.tag}` }).click();
      await filtered;
      await expect(libraryDialog(page).getByText(`Tag: ${run.tag}`)).toBeVisible();
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      await expect(savedPrompts(page).filter({ hasNot: page.getByRole('button', { name: `Prompts tagged ${run.tag}` }) })).toHaveCount(0);
      return;
    }
    case 'prompts.loadMore': {
      // More than a search page of them: the first 50, then the rest below.
      const viewMore = libraryDialog(page).getByRole('button', { name: 'View More' });
      await expect(savedPrompts(page)).toHaveCount(PROMPT_SEARCH_PAGE_SIZE);
      await viewMore.click();
      run.all = true;
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      await expect(savedPrompts(page).filter({ hasNotText: run.word })).toHaveCount(0);
      await expect(viewMore).toHaveCount(0);
      return;
    }
    case 'prompt.copy': {
      const entry = await promptFor(run, event.id as string);
      run.copying = entry;
      if (next?.type === 'xstate.error.actor.copyText') {
        await page.evaluate(() => {
          navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
        });
      }
      await itemOf(run, entry).getByRole('button', { name: /^(Copy prompt|Prompt copied)$/ }).click();
      // A path may end here: the clipboard then takes the text as it does on the first copy.
      if (!next) await perform(run, { type: 'xstate.done.actor.copyText' }, undefined);
      return;
    }
    case 'xstate.done.actor.copyText': {
      // The copied prompt's button says so (and only its); the clipboard holds its text.
      const entry = run.copying!;
      await expect(itemOf(run, entry).getByRole('button', { name: 'Prompt copied' })).toBeVisible();
      await expect(libraryDialog(page).getByRole('button', { name: 'Prompt copied' })).toHaveCount(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(entry.prompt);
      return;
    }
    case 'xstate.error.actor.copyText':
      await expect(toast(page, COPY_PROMPT_FAILED)).toBeVisible();
      await expect(libraryDialog(page).getByRole('button', { name: 'Prompt copied' })).toHaveCount(0);
      // The clipboard as Chromium has it again (the stub was this page's own property).
      await page.evaluate(() => delete (navigator.clipboard as Partial<Clipboard>).writeText);
      return;
    case AFTER:
      // Two seconds on, every button offers to copy again.
      await expect(libraryDialog(page).getByRole('button', { name: 'Prompt copied' })).toHaveCount(0, { timeout: 5_000 });
      return;
    case 'prompt.paste': {
      // The text goes into the input box and the library closes (the screen stops it).
      const entry = await promptFor(run, 'p1');
      await itemOf(run, entry).getByRole('button', { name: 'Paste to chat' }).click();
      await expect(toast(page, PROMPT_PASTED)).toBeVisible();
      await expect(libraryDialog(page)).toHaveCount(0);
      await expect(messageBox(page)).toHaveValue(entry.prompt);
      await expect(messageBox(page)).toBeFocused();
      if (next) {
        // The model stays in the list: a person opens the library again and finds their prompts.
        await openLibrary(run);
        await searchOwn(page, run.word, shownCount(run));
      }
      return;
    }
    case 'prompt.new':
      await libraryDialog(page).getByRole('button', { name: 'New Prompt' }).click();
      await expectForm(page, 'New Prompt', '', '');
      return;
    case 'prompt.edit': {
      run.editing = await promptFor(run, event.id as string);
      run.editingAt = (await listedLabels(page)).indexOf(run.editing.prompt);
      if (next?.type === 'xstate.error.actor.loadPrompt') {
        await page.route(PROMPT_ENTRY, (route) =>
          route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback(),
        );
      }
      await itemOf(run, run.editing).getByRole('button', { name: 'Edit prompt' }).click();
      if (!next) await perform(run, { type: 'xstate.done.actor.loadPrompt' }, undefined);
      return;
    }
    case 'xstate.done.actor.loadPrompt':
      await expectForm(page, 'Edit Prompt', run.editing!.prompt, run.editing!.tags.join(', '));
      return;
    case 'xstate.error.actor.loadPrompt':
      await expect(toast(page, PROMPT_DETAILS_FAILED)).toBeVisible();
      await expect(formDialog(page, 'Edit Prompt')).toHaveCount(0);
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      run.editing = null;
      await page.unroute(PROMPT_ENTRY);
      return;
    case 'form.cancel': {
      const title = openForm(run);
      await formDialog(page, title).getByRole('button', { name: 'Cancel' }).click();
      await expect(formDialog(page, title)).toHaveCount(0);
      // The list as it was.
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      if (run.editing) await expect(itemOf(run, run.editing)).toBeVisible();
      run.editing = null;
      return;
    }
    case 'notice.show': {
      // The form's save fails (the connection drops): its sentence shows, the form stays with what was typed.
      const title = openForm(run);
      const form = formDialog(page, title);
      await fillForm(run);
      const typed = await form.getByRole('textbox', { name: 'Prompt' }).inputValue();
      const matches = run.editing ? PROMPT_ENTRY : PROMPTS;
      await page.route(matches, (route) => (['POST', 'PUT'].includes(route.request().method()) ? route.abort('connectionfailed') : route.fallback()));
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(toast(page, run.editing ? UPDATE_PROMPT_FAILED : SAVE_PROMPT_FAILED)).toBeVisible();
      await expect(form.getByRole('textbox', { name: 'Prompt' })).toHaveValue(typed);
      await expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
      await page.unroute(matches);
      return;
    }
    case 'xstate.done.actor.form': {
      const form = formDialog(page, openForm(run));
      if (run.editing) {
        // Edit Prompt: the new text shows in place of the old one.
        const before = run.editing;
        const after = { ...before, prompt: `${before.prompt} (edited)` };
        await form.getByRole('textbox', { name: 'Prompt' }).fill(after.prompt);
        await form.getByRole('button', { name: 'Save' }).click();
        await expect(toast(page, PROMPT_UPDATED)).toBeVisible();
        await expect(form).toHaveCount(0);
        run.mine[run.mine.indexOf(before)] = after;
        for (const [id, e] of run.bound) if (e === before) run.bound.set(id, after);
        await expect(savedPrompts(page).nth(run.editingAt)).toHaveAttribute('aria-label', after.prompt);
        await expect(savedPrompt(page, before.prompt)).toHaveCount(0);
        run.editing = null;
        return;
      }
      // New Prompt: saved on top of the list.
      await fillForm(run);
      const saved = page.waitForResponse((r) => PROMPTS(new URL(r.url())) && r.request().method() === 'POST');
      await form.getByRole('button', { name: 'Save' }).click();
      const entry = ((await (await saved).json()) as { data: PromptEntry }).data;
      run.api.created.add(entry.id);
      await expect(toast(page, PROMPT_SAVED)).toBeVisible();
      await expect(form).toHaveCount(0);
      run.mine.unshift(entry);
      await expect(savedPrompts(page).first()).toHaveAttribute('aria-label', entry.prompt);
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      return;
    }
    case 'prompt.delete':
      run.deleting = await promptFor(run, event.id as string);
      await itemOf(run, run.deleting).getByRole('button', { name: 'Delete prompt' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Delete Prompt' })).toBeVisible();
      return;
    case 'delete.cancel':
      await page.getByRole('alertdialog', { name: 'Delete Prompt' }).getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Delete Prompt' })).toHaveCount(0);
      await expect(itemOf(run, run.deleting!)).toBeVisible();
      run.deleting = null;
      return;
    case 'delete.confirm':
      if (next?.type === 'xstate.error.actor.deletePrompt') {
        await page.route(PROMPT_ENTRY, (route) =>
          route.request().method() === 'DELETE' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback(),
        );
      }
      await page.getByRole('alertdialog', { name: 'Delete Prompt' }).getByRole('button', { name: 'Delete' }).click();
      if (!next) await perform(run, { type: 'xstate.done.actor.deletePrompt' }, undefined);
      return;
    case 'xstate.done.actor.deletePrompt': {
      const gone = run.deleting!;
      await expect(toast(page, PROMPT_DELETED)).toBeVisible();
      await expect(page.getByRole('alertdialog', { name: 'Delete Prompt' })).toHaveCount(0);
      await expect(itemOf(run, gone)).toHaveCount(0);
      run.mine = run.mine.filter((p) => p !== gone);
      run.api.created.delete(gone.id);
      await expect(savedPrompts(page)).toHaveCount(shownCount(run));
      run.deleting = null;
      return;
    }
    case 'xstate.error.actor.deletePrompt':
      await expect(toast(page, DELETE_PROMPT_FAILED)).toBeVisible();
      await expect(page.getByRole('alertdialog', { name: 'Delete Prompt' })).toHaveCount(0);
      await expect(itemOf(run, run.deleting!)).toBeVisible();
      run.deleting = null;
      await page.unroute(PROMPT_ENTRY);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

test.describe('prompt-library paths (generated from machines/prompt-library.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('prompt-library (e2e paths)', coverageOf(promptLibraryMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page, context, request }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await paceSaves(page);
      await signInAndLand(page, accounts.user, /\/chat$/);
      const api = await PromptApi.of(page, request);
      const word = unique('plx').replace(' ', '');
      // Three prompts in two tags; more than a search page of them when the path asks for View More.
      const count = path.events.some((e) => e.type === 'prompts.loadMore') ? PROMPT_SEARCH_PAGE_SIZE + 1 : 3;
      try {
        const mine = (
          await api.save(
            Array.from({ length: count }, (_, i) => ({ prompt: `Draft a polite reply ${word} #${i + 1}`, tags: [i % 2 ? `odd-${word}` : `even-${word}`] })),
          )
        ).reverse();
        const run: Run = { page, api, word, mine, bound: new Map(), copying: null, editing: null, editingAt: -1, deleting: null, tag: null, all: false };
        // The path starts with the library open (its first step searches the test's word).
        await openLibrary(run);
        for (const [i, event] of path.events.entries()) {
          await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        await api.cleanUp();
      }
    });
  }
});
