import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { POLICY_LOAD_FAILED, POLICY_MAX_WORDS, POLICY_TOO_LONG, POLICY_UPDATE_FAILED, POLICY_UPDATED } from '../../../contract/global-policy-constants';
import { countWords } from '../../../shared/word-count';
import { wordCountLevel } from '../../../machines/policy-editor.machine';
import { policyPayload } from '../../../machines/policy-editor.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { runExclusively } from '../helpers/exclusive';
import { errorEnvelope, unique, type Step, signedInToken } from './paths-support';
import { OVER, policyEditorMachine, policyEditorPaths as paths, type TextKind } from './policy-editor.paths-model';

/**
 * The policy editor's generated paths (machines/policy-editor.machine.ts, the model in policy-editor.paths-model.ts),
 * driven through the real Global Policy page (/global-policy) as the organisation's admin.
 *
 * The organisation has one policy, shared by every test and by QA on staging: the tests of this file take turns
 * (serial), each reads the policy through the API before it starts and puts it back (PUT) at its end once any of
 * its saves reached the server. Another file (test/e2e/global-policy.spec.ts) may change the policy meanwhile, so
 * the steps assert what they put in the editor themselves, what the page loaded (that load's own response) and
 * what the server answered to their own save; they never read the policy back in between.
 *
 * Every save is held in the browser (a pass-through `page.route`, also on staging) until the step has seen the
 * editor busy, then goes to the real server. Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the load
 * failing (a 500 on GET /global-policy/) and the save's connection dropped (PUT aborted). Leaving with unsaved
 * changes is the sidebar's Departments link; discarding them is checked by coming back through the sidebar.
 */
const POLICY = (url: URL) => url.pathname.endsWith('/api/v1/global-policy/');
const isPolicy = (r: Response, method: string) => r.request().method() === method && POLICY(new URL(r.url()));

const heading = (page: Page) => page.getByRole('heading', { name: 'Global Policy', level: 1 });
const policyBox = (page: Page) => page.getByRole('textbox', { name: 'Policy Prompt' });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save Policy' });
const resetButton = (page: Page) => page.getByRole('button', { name: 'Reset' });
const retryButton = (page: Page) => page.getByRole('button', { name: 'Retry' });
const counter = (page: Page) => page.getByText(/ \/ 1,500 words/);
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const loadingSpinner = (page: Page) => page.getByRole('status').filter({ hasText: 'Loading policy' });
/** The page's own banner (the toast says POLICY_LOAD_FAILED). */
const loadFailedBanner = (page: Page) => page.getByRole('alert').filter({ hasText: 'The policy could not be loaded.' });
const leaveDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
const sidebarLink = (page: Page, name: string) => page.getByRole('link', { name }).first();

/** The counter as a person reads it: words of the limit, near or over it, and whether changes are unsaved. */
function counterText(text: string, unsaved: boolean) {
  const words = countWords(text);
  const note = { normal: '', near: ' — near the limit', over: ' — over the limit' }[wordCountLevel(words)];
  const line = `${words.toLocaleString('en-US')} / ${POLICY_MAX_WORDS.toLocaleString('en-US')} words${note}`;
  return new RegExp(`^${line}\\s*${unsaved ? '· Unsaved changes' : ''}$`);
}

/** A toast says `text`; the person closes it, so the next step sees only its own. */
async function expectToast(page: Page, text: string) {
  await expect(toast(page, text)).toBeVisible();
  await toast(page, text).getByRole('button', { name: 'Close' }).click();
  await expect(toast(page, text)).toHaveCount(0);
}

/** The organisation's policy through the API, with the signed-in admin's token. */
class PolicyApi {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async of(page: Page) {
    return new PolicyApi(page.request, await signedInToken(page));
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async read(): Promise<string | null> {
    const res = await this.request.get('/api/v1/global-policy/', { headers: this.headers });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: { policy_prompt: string | null } }).data.policy_prompt;
  }

  async write(policy: string | null) {
    const res = await this.request.put('/api/v1/global-policy/', { headers: this.headers, data: { policy_prompt: policy } });
    expect(res.status()).toBe(200);
  }
}

/** A save the browser sent, held until the step lets it go. */
interface HeldSave {
  body: unknown;
  release: () => void;
}

/** A test's browser and what the person has in front of them. */
interface Run {
  page: Page;
  /** The test's own text (unique words, whitespace around them). */
  own: string;
  /** The text as last loaded or stored: the editor is clean when it shows this. */
  saved: string;
  /** The text in the editor. */
  text: string;
  /** The load the page is making (from the visit, or from Retry). */
  load: Promise<Response> | null;
  /** The server's answer to the save on its way. */
  answer: Promise<Response> | null;
  failLoad: boolean;
  failSave: boolean;
  held: HeldSave[];
  /** Resolves with the next save the route holds. */
  nextHeld: Promise<HeldSave> | null;
  onHeld: ((held: HeldSave) => void) | null;
  /** A save has gone on to the server: the policy must be put back. */
  wrote: boolean;
}

const textFor = (run: Run, kind: TextKind) => (kind === 'saved' ? run.saved : kind === 'over' ? OVER : run.own);

/** The editor as a person sees it: the text, the counter, Save and Reset, the limit's message, no spinner. */
async function expectEditor(run: Run) {
  const { page, text, saved } = run;
  const unsaved = text !== saved;
  const over = countWords(text) > POLICY_MAX_WORDS;
  await expect(policyBox(page)).toHaveValue(text);
  await expect(policyBox(page)).toBeEditable();
  await expect(loadingSpinner(page)).toHaveCount(0);
  await expect(loadFailedBanner(page)).toHaveCount(0);
  await expect(counter(page)).toHaveText(counterText(text, unsaved));
  await expect(page.getByText(POLICY_TOO_LONG)).toHaveCount(over ? 1 : 0);
  // Save only with changes within the limit; Reset only with changes.
  if (unsaved && !over) await expect(saveButton(page)).toBeEnabled();
  else await expect(saveButton(page)).toBeDisabled();
  if (unsaved) await expect(resetButton(page)).toBeEnabled();
  else await expect(resetButton(page)).toBeDisabled();
}

const nextLoad = (page: Page) => page.waitForResponse((r) => isPolicy(r, 'GET'));

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (event.type) {
    case 'xstate.done.actor.loadPolicy': {
      // The editor shows what this load answered (another test may have changed the policy since the API read).
      const loaded = ((await (await run.load!).json()) as { data: { policy_prompt: string | null } }).data.policy_prompt;
      run.saved = loaded ?? '';
      run.text = run.saved;
      await expect(heading(page)).toBeVisible();
      await expectEditor(run);
      await expect(page.getByText('Unsaved changes')).toHaveCount(0);
      return;
    }
    case 'xstate.error.actor.loadPolicy':
      await run.load;
      await expectToast(page, POLICY_LOAD_FAILED);
      // No editor; the page says why and offers to try again.
      await expect(loadFailedBanner(page)).toBeVisible();
      await expect(retryButton(page)).toBeEnabled();
      await expect(loadingSpinner(page)).toHaveCount(0);
      await expect(policyBox(page)).toHaveCount(0);
      await expect(saveButton(page)).toHaveCount(0);
      return;
    case 'policy.retry':
      run.failLoad = next?.type === 'xstate.error.actor.loadPolicy';
      run.load = nextLoad(page);
      await retryButton(page).click();
      // A path may end here: the server then gives the policy as on the first visit.
      if (!next) await expect(policyBox(page)).toBeEditable();
      return;
    case 'policy.change':
      run.text = textFor(run, event.kind as TextKind);
      await policyBox(page).fill(run.text);
      await expectEditor(run);
      return;
    case 'policy.reset':
      await resetButton(page).click();
      run.text = run.saved;
      await expectEditor(run);
      await expect(page.getByText('Unsaved changes')).toHaveCount(0);
      return;
    case 'policy.save': {
      run.failSave = next?.type === 'xstate.error.actor.savePolicy';
      run.answer = run.failSave ? null : page.waitForResponse((r) => isPolicy(r, 'PUT'));
      run.nextHeld = new Promise((resolve) => (run.onHeld = resolve));
      await saveButton(page).click();
      const held = await run.nextHeld;
      // What is sent: the text trimmed, none for no text.
      expect(held.body).toEqual({ policy_prompt: policyPayload(run.text) });
      // While it saves: the text stays, the editor is disabled, Save shows it is busy, nothing to reset.
      await expect(policyBox(page)).toHaveValue(run.text);
      await expect(policyBox(page)).toBeDisabled();
      await expect(saveButton(page)).toHaveAttribute('data-pending', 'true');
      await expect(saveButton(page)).toBeDisabled();
      await expect(resetButton(page)).toBeDisabled();
      held.release();
      // A path may end here: the server then stores it as it does the first time.
      if (!next) await perform(run, { type: 'xstate.done.actor.savePolicy' }, undefined);
      return;
    }
    case 'xstate.done.actor.savePolicy': {
      await expectToast(page, POLICY_UPDATED);
      // The server stored the text trimmed (none for no text) and says so; the editor shows it, clean again. Its
      // answer, not a read afterwards: another test may save the policy meanwhile.
      const stored = policyPayload(run.text);
      const answer = await run.answer!;
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { data: { policy_prompt: string | null } }).data.policy_prompt).toBe(stored);
      run.saved = stored ?? '';
      run.text = run.saved;
      await expectEditor(run);
      await expect(page.getByText('Unsaved changes')).toHaveCount(0);
      return;
    }
    case 'policy.leave':
      // Another page of the sidebar: the page asks first, and stays until answered.
      await sidebarLink(page, 'Departments').click();
      await expect(leaveDialog(page)).toBeVisible();
      await expect(leaveDialog(page)).toContainText('If you leave this page now, they will be lost.');
      await expect(page).toHaveURL(/\/global-policy$/);
      return;
    case 'policy.stay':
      await leaveDialog(page).getByRole('button', { name: 'Stay on this page' }).click();
      await expect(leaveDialog(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/global-policy$/);
      // The changes are kept, still unsaved.
      await expectEditor(run);
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      return;
    case 'policy.discard': {
      const saves = run.held.length;
      await leaveDialog(page).getByRole('button', { name: 'Discard and leave' }).click();
      await expect(page).toHaveURL(/\/departments$/);
      await expect(page.getByRole('heading', { name: 'Department Management', level: 1 })).toBeVisible();
      expect(run.held).toHaveLength(saves);
      // Back on the page: the policy as the server has it, the discarded text gone.
      run.load = nextLoad(page);
      await sidebarLink(page, 'Global Policy').click();
      const discarded = run.text;
      await perform(run, { type: 'xstate.done.actor.loadPolicy' }, undefined);
      expect(run.text).not.toBe(discarded);
      return;
    }
    case 'xstate.error.actor.savePolicy':
      await expectToast(page, POLICY_UPDATE_FAILED);
      run.failSave = false;
      // The text is kept, unsaved, and can be saved again.
      await expectEditor(run);
      await expect(page.getByText('Unsaved changes')).toBeVisible();
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** 'xstate.done.actor.loadPolicy → policy.change(edited) → policy.save → ...'. */
const stepName = (e: Step) => (e.type === 'policy.change' ? `${e.type}(${e.kind as string})` : e.type);

test.describe('policy editor paths (generated from machines/policy-editor.machine.ts)', () => {
  // One organisation's one policy: this file's paths take turns, and take turns with global-policy.spec.ts.
  test.describe.configure({ mode: 'serial' });
  runExclusively('global-policy');

  test.afterAll(() => {
    console.log(formatCoverage('policy-editor (e2e paths)', coverageOf(policyEditorMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      await signInByApi(page, accounts.admin);
      const api = await PolicyApi.of(page);
      const found = await api.read();
      const run: Run = {
        page,
        own: `  Path test ${unique('policy')}: answer in British English.\n`,
        saved: '',
        text: '',
        load: null,
        answer: null,
        failLoad: path.events[0]?.type === 'xstate.error.actor.loadPolicy',
        failSave: false,
        held: [],
        nextHeld: null,
        onHeld: null,
        wrote: false,
      };
      await page.route(POLICY, async (route) => {
        const method = route.request().method();
        if (method === 'GET' && run.failLoad) return route.fulfill(errorEnvelope(500, 'Internal Server Error'));
        if (method !== 'PUT') return route.fallback();
        await new Promise<void>((release) => {
          const held = { body: route.request().postDataJSON() as unknown, release };
          run.held.push(held);
          run.onHeld?.(held);
        });
        if (run.failSave) return route.abort('failed');
        run.wrote = true;
        return route.fallback();
      });
      const saves: Array<Promise<unknown>> = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && POLICY(new URL(r.url()))) saves.push(r.response().catch(() => null));
      });
      try {
        run.load = nextLoad(page);
        // The path starts as the page loads the policy.
        await page.goto('/global-policy');
        for (const [i, event] of path.events.entries()) {
          await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        // A step that failed may leave a wait behind: it ends with the test, unheeded.
        run.load?.catch(() => null);
        run.answer?.catch(() => null);
        // A save still held is dropped; one on its way is let finish; then the policy as found goes back.
        run.failSave = true;
        run.held.forEach((h) => h.release());
        await Promise.race([Promise.all(saves), new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (run.wrote) await api.write(found);
      }
    });
  }
});
