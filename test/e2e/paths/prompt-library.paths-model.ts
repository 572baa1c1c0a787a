import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { SnapshotFrom } from 'xstate';
import type { PromptEntry } from '../../../contract/prompt-library';
import { promptLibraryMachine, SAVE_PROMPT_FAILED } from '../../../machines/prompt-library.machine';
import { notice } from '../../../machines/notice';
import { isLocalServer } from '../helpers/accounts';
import { waitOutRateLimits, withinRateLimits } from '../helpers/rate-limits';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step, signedInToken } from './paths-support';

type Snap = SnapshotFrom<typeof promptLibraryMachine>;

export const AFTER = 'xstate.after.COPIED.promptLibrary.browsing.copied';

/**
 * The model's prompts: `p1` is the first of the list the test sees, `p2` the second (the browser binds each to the
 * test's own prompt it finds there, by the test's unique word).
 */
const entry: PromptEntry = { id: 'p1', prompt: 'Draft a polite reply', tags: ['tag'], created_at: '', updated_at: '' };
const second: PromptEntry = { id: 'p2', prompt: 'Summarise the minutes', tags: ['tag'], created_at: '', updated_at: '' };

/**
 * The person, in the open library: searches (the test's word), picks a prompt's tag, View More, copies, pastes,
 * New Prompt, Edit Prompt, Delete Prompt; the server answers (or, with a stub, fails), the clipboard takes the text
 * (or, with a stub, refuses). Each state offers each of its events once: what `browsing` handles is offered from
 * `idle` only, and the list's events (forwarded to the pager, one transition each whatever the payload) once each:
 * 'Clear tag' is the same transition as picking a tag.
 *
 * In a form (New Prompt, Edit Prompt), `notice.show` is the form's failed save, which the library passes on (the
 * browser reads the use's own sentence: 'Failed to save prompt' or 'Failed to update prompt'). The form's success
 * toast also reaches the screen as a passed-on notice, just before `xstate.done.actor.form`: the model folds it into
 * that event.
 *
 * Not generated: `form.cancel` while the prompt loads (its Cancel beside the spinner shows only for the moment the
 * load takes) and `prompts.reload` ('Try again' after the list failed to load): the model test covers both. Not
 * offered by the view: anything behind an open form or the Delete Prompt confirmation, `delete.cancel` while
 * deleting (Cancel is disabled, the dialog not dismissable).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'browsing.idle':
      return [
        { type: 'prompts.search', text: 'word' },
        { type: 'prompts.filterTag', tag: 'tag' },
        { type: 'prompts.loadMore' },
        { type: 'prompt.copy', id: entry.id, text: entry.prompt },
        { type: 'prompt.paste', text: entry.prompt },
        { type: 'prompt.new' },
        { type: 'prompt.edit', id: entry.id },
        { type: 'prompt.delete', id: entry.id },
      ];
    case 'browsing.copying':
      return [
        { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' },
        { type: 'xstate.error.actor.copyText', error: new Error('denied'), actorId: 'copyText' },
      ];
    case 'browsing.copied':
      // Copying another prompt while the first says it was copied.
      return [{ type: AFTER }, { type: 'prompt.copy', id: second.id, text: second.prompt }];
    case 'creating':
    case 'editing':
      return [
        { type: 'form.cancel' },
        { ...notice('error', SAVE_PROMPT_FAILED) },
        { type: 'xstate.done.actor.form', output: entry, actorId: 'form' },
      ];
    case 'loadingPrompt':
      return [
        { type: 'xstate.done.actor.loadPrompt', output: entry, actorId: 'loadPrompt' },
        { type: 'xstate.error.actor.loadPrompt', error: new Error('500'), actorId: 'loadPrompt' },
      ];
    case 'confirmingDelete':
      return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }];
    case 'deleting':
      return [
        { type: 'xstate.done.actor.deletePrompt', output: undefined, actorId: 'deletePrompt' },
        { type: 'xstate.error.actor.deletePrompt', error: new Error('500'), actorId: 'deletePrompt' },
      ];
    default:
      return [];
  }
}


const SEARCH = { type: 'prompts.search', text: 'word' } as const;

const generated = maximalPaths({
  machine: promptLibraryMachine,
  inputs: [undefined as never],
  events: eventsFor as never,
  key: (s) => JSON.stringify(s.value),
  edgeKeys: true,
});

export { promptLibraryMachine };
/**
 * On a shared account the list is only looked at through the test's own word: each path starts with that search
 * (a self-transition of the library, so the rest of the path goes as generated), and a path that is only the search
 * is then part of all the others.
 */
export const promptLibraryPaths = asSteps<undefined>(
  coveringPaths(
    promptLibraryMachine,
    generated.map((p) => {
      const events = p.events[0]?.type === SEARCH.type ? p.events : [SEARCH, ...p.events];
      return { ...p, events, description: events.map((e) => e.type).join(' → ') } as typeof p;
    }),
  ),
);

// ---- In the browser: what both prompt path specs (prompt-library, prompt-form) use. ----

export const PROMPTS = (url: URL) => url.pathname.endsWith('/api/v1/prompt-libraries/');
export const PROMPT_ENTRY = (url: URL) => /\/api\/v1\/prompt-libraries\/[^/]+$/.test(url.pathname);

/** Against a deployment, the person's saves (new prompts with POST, edits with PUT) wait out its per-person limit. */
export async function paceSaves(page: Page) {
  if (isLocalServer) return;
  await waitOutRateLimits(page, PROMPTS, 'POST');
  await waitOutRateLimits(page, PROMPT_ENTRY, 'PUT');
}

export const libraryDialog = (page: Page) => page.getByRole('dialog', { name: 'Prompt Library' });
export const savedPrompts = (page: Page) => libraryDialog(page).getByRole('list', { name: 'Saved prompts' }).getByRole('listitem');
/** A prompt in the list by its text (the item is labelled with it, cut at 60 characters: the tests' are shorter). */
export const savedPrompt = (page: Page, prompt: string) => savedPrompts(page).and(page.getByRole('listitem', { name: prompt, exact: true }));
export const searchBox = (page: Page) => libraryDialog(page).getByRole('searchbox', { name: 'Search prompts' });
export const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

/** The person's prompts through the API, as another tab of theirs would save or delete them. */
export class PromptApi {
  /** What this test has saved and not deleted: removed at its end. */
  readonly created = new Set<string>();
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  /** For the signed-in person of `page`. */
  static async of(page: Page, request: APIRequestContext) {
    return new PromptApi(request, await signedInToken(page));
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  /** Saves them one after another (the list shows the last one first). */
  async save(prompts: Array<{ prompt: string; tags: string[] }>): Promise<PromptEntry[]> {
    const saved: PromptEntry[] = [];
    for (const body of prompts) {
      const res = await withinRateLimits(() => this.request.post('/api/v1/prompt-libraries/', { headers: this.headers, data: body }));
      expect(res.status()).toBe(200);
      const entry = ((await res.json()) as { data: PromptEntry }).data;
      this.created.add(entry.id);
      saved.push(entry);
    }
    return saved;
  }

  /** Deletes what this test saved (through the API or the UI) and did not delete itself. */
  async cleanUp() {
    for (const id of this.created) {
      const res = await this.request.delete(`/api/v1/prompt-libraries/${id}`, { headers: this.headers });
      expect([200, 204, 404]).toContain(res.status());
    }
    this.created.clear();
  }
}

/** Searches the test's own word and waits for its results: from then on the list shows only this test's prompts. */
export async function searchOwn(page: Page, word: string, count: number) {
  const searched = page.waitForResponse((r) => PROMPTS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === word);
  await searchBox(page).fill(word);
  await searched;
  await expect(savedPrompts(page)).toHaveCount(count);
  await expect(savedPrompts(page).filter({ hasNotText: word })).toHaveCount(0);
}
