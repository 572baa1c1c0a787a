import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import {
  SYSTEM_PROMPT_ACTIVATE_FAILED,
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_DEACTIVATED,
  SYSTEM_PROMPT_PREVIEW_FAILED,
} from '../../../contract/system-prompts-constants';
import { CLIENT_CHOICES_FAILED } from '../../../machines/system-prompts.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { registerClient, superuserHeaders } from '../helpers/clients-area';
import { OWN_CLIENT, systemPromptsMachine, systemPromptsPaths as paths } from './system-prompts.paths-model';
import { errorEnvelope, unique, type Step } from './paths-support';

/**
 * The System Prompts page's generated paths (the preview part of machines/system-prompts.machine.ts, the model in
 * system-prompts.paths-model.ts), driven through the real page as the superuser.
 *
 * Data: each path has a client kept for it (found by its name, `E2E system prompts path <n>`, registered the first
 * time: clients cannot be deleted; one a path, since activating a prompt deactivates the one active for the same
 * client) and a prompt of its own for that client, made active through the API before the page loads and deleted at
 * the end (with any an earlier, interrupted run left for that client). The changes a path makes are deactivating and
 * activating that prompt, so no one else's replies change.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL). The browser holds every read of the preview and
 * the clients' read until the path's step answers it (`page.route`), so a choice or a change made while the preview
 * is being read happens exactly then; stubs fail the preview, the clients' read and an activation (500s).
 */
const PREVIEW = (url: URL) => url.pathname.endsWith('/api/v1/system-prompts/preview');
const CLIENTS = (url: URL) => url.pathname.endsWith('/api/v1/clients/');
const ACTIVATION = (url: URL) => /\/api\/v1\/system-prompts\/[^/]+\/(activate|deactivate)$/.test(url.pathname);

const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const preview = (page: Page) => page.getByLabel('Composed system prompt');
const previewFor = (page: Page) => page.getByRole('button', { name: /Preview for$/ });
const previewLoading = (page: Page) => page.getByRole('status').filter({ hasText: 'Loading preview' });

interface Own {
  clientId: string;
  clientName: string;
  promptId: string;
  promptName: string;
  content: string;
  headers: Record<string, string>;
}

/** A read held until the path's step answers it. */
interface Held {
  route: Route;
  clientId: string | null;
}

/** What the test has: its client and prompt, whose preview is chosen, whether the prompt is active, the held reads. */
interface Run {
  page: Page;
  own: Own;
  /** null: everyone's. */
  scope: string | null;
  active: boolean;
  previews: Held[];
  clients: Route | null;
  /** The clients' read was answered (its later pages, if any, go through): 'done', or 'failed' (a 500). */
  clientsAnswer: 'done' | 'failed' | null;
}

type PromptRow = { id: string; client_id: string | null };

/** The path's kept client, its leftovers deleted, and a prompt of the path's own for it, active. */
async function setUp(request: APIRequestContext, n: number): Promise<Own> {
  const headers = await superuserHeaders(request);
  const clientName = `E2E system prompts path ${n}`;
  const found = await request.get('/api/v1/clients/', { headers, params: { search: clientName } });
  expect(found.status()).toBe(200);
  const kept = ((await found.json()) as { data: { clients: Array<{ id: string; client_name: string }> } }).data.clients.find((c) => c.client_name === clientName);
  const clientId = kept?.id ?? (await registerClient(request, clientName)).id;
  const listed = await request.get('/api/v1/system-prompts/', { headers });
  expect(listed.status()).toBe(200);
  for (const p of ((await listed.json()) as { data: { prompts: PromptRow[] } }).data.prompts.filter((p) => p.client_id === clientId)) {
    expect((await request.delete(`/api/v1/system-prompts/${p.id}`, { headers })).ok()).toBe(true);
  }
  const promptName = unique('Paths prompt');
  const content = `Sign every answer with ${unique('paths').replace(' ', '-')}.`;
  const created = await request.post('/api/v1/system-prompts/', { headers, data: { name: promptName, content, client_id: clientId } });
  expect(created.ok(), await created.text()).toBe(true);
  const promptId = ((await created.json()) as { data: { id: string } }).data.id;
  expect((await request.post(`/api/v1/system-prompts/${promptId}/activate`, { headers })).ok()).toBe(true);
  return { clientId, clientName, promptId, promptName, content, headers };
}

/** Holds every read of the preview and the clients' read until a step answers them. */
async function holdReads(run: Run) {
  await run.page.route(PREVIEW, (route) => {
    run.previews.push({ route, clientId: new URL(route.request().url()).searchParams.get('client_id') });
  });
  await run.page.route(CLIENTS, (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    if (run.clientsAnswer === 'failed') return route.fulfill(errorEnvelope(500, 'Internal Server Error'));
    if (run.clientsAnswer === 'done') return route.fallback();
    run.clients = route;
  });
}

/** The read in flight (the newest), once the page has asked for it. */
async function newestRead(run: Run): Promise<Held> {
  await expect.poll(() => run.previews.length).toBeGreaterThan(0);
  return run.previews[run.previews.length - 1]!;
}

/** Reads the page gave up (a newer one replaced them): let through after the newest one is answered. */
async function releaseStale(run: Run) {
  const stale = run.previews.splice(0, run.previews.length - 1);
  for (const held of stale) await held.route.fallback().catch(() => undefined);
}

/** The composed prompt shown holds the test's prompt exactly when its client is previewed and the prompt is active. */
async function expectPreview(run: Run) {
  await expect(previewLoading(run.page)).toHaveCount(0);
  await expect(preview(run.page)).toBeVisible();
  if (run.scope !== null && run.active) await expect(preview(run.page)).toContainText(run.own.content);
  else await expect(preview(run.page)).not.toContainText(run.own.content);
}

async function expectReading(run: Run) {
  await expect(previewLoading(run.page)).toBeVisible();
  const held = await newestRead(run);
  expect(held.clientId).toBe(run.scope);
}

/** The prompt's scope as its card says it: the client's name once the clients are read, 'A client' before or without. */
const scopeChip = (run: Run) => run.page.getByRole('listitem').filter({ has: run.page.getByRole('heading', { name: run.own.promptName }) });

async function perform(run: Run, event: Step) {
  const { page, own } = run;
  switch (event.type) {
    case 'xstate.done.actor.preview': {
      const held = await newestRead(run);
      expect(held.clientId).toBe(run.scope);
      run.previews.pop();
      const answered = page.waitForResponse((r) => r.request() === held.route.request());
      await held.route.fallback();
      await answered;
      // An answer for an earlier choice (or before a change) comes after: the newest stays shown.
      await releaseStale(run);
      await expectPreview(run);
      return;
    }
    case 'xstate.error.actor.preview': {
      const held = await newestRead(run);
      run.previews.pop();
      await held.route.fulfill(errorEnvelope(500, 'Internal Server Error'));
      await releaseStale(run);
      await expect(page.getByRole('region', { name: 'Composed prompt preview' }).getByRole('alert')).toContainText(SYSTEM_PROMPT_PREVIEW_FAILED);
      await expect(toast(page, SYSTEM_PROMPT_PREVIEW_FAILED)).toBeVisible();
      await toast(page, SYSTEM_PROMPT_PREVIEW_FAILED).getByRole('button', { name: 'Close' }).click();
      await expect(previewLoading(page)).toHaveCount(0);
      return;
    }
    case 'xstate.done.actor.clients': {
      // Not read yet: whose preview cannot be chosen, the prompt's client has no name.
      await expect(previewFor(page)).toBeDisabled();
      await expect(scopeChip(run)).toContainText('A client');
      await expect.poll(() => run.clients !== null).toBe(true);
      run.clientsAnswer = 'done';
      await run.clients!.fallback();
      await expect(previewFor(page)).toBeEnabled();
      await expect(scopeChip(run)).toContainText(own.clientName);
      return;
    }
    case 'xstate.error.actor.clients': {
      await expect(previewFor(page)).toBeDisabled();
      await expect.poll(() => run.clients !== null).toBe(true);
      run.clientsAnswer = 'failed';
      await run.clients!.fulfill(errorEnvelope(500, 'Internal Server Error'));
      // The prompts still work, for everyone: the selector offers no client, the prompt's client stays unnamed.
      await expect(toast(page, CLIENT_CHOICES_FAILED)).toBeVisible();
      await toast(page, CLIENT_CHOICES_FAILED).getByRole('button', { name: 'Close' }).click();
      await expect(previewFor(page)).toBeEnabled();
      await expect(scopeChip(run)).toContainText('A client');
      return;
    }
    case 'preview.choose': {
      run.scope = event.clientId === OWN_CLIENT ? own.clientId : null;
      await previewFor(page).click();
      await page.getByRole('option', { name: run.scope ? own.clientName : 'Everyone (no client)', exact: true }).click();
      await expect(previewFor(page)).toContainText(run.scope ? own.clientName : 'Everyone (no client)');
      // The one shown goes: it was someone else's.
      await expect(preview(page)).toHaveCount(0);
      await expectReading(run);
      return;
    }
    case 'preview.retry':
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByRole('region', { name: 'Composed prompt preview' }).getByRole('alert')).toHaveCount(0);
      await expectReading(run);
      return;
    case 'notice.show': {
      const verb = run.active ? 'Deactivate' : 'Activate';
      const button = page.getByRole('button', { name: `${verb} ${own.promptName}` });
      const before = run.previews.length;
      if (event.tone === 'error') {
        // The change fails: its toast, and the preview is not read again.
        await page.route(ACTIVATION, (route) => route.fulfill(errorEnvelope(500, SYSTEM_PROMPT_ACTIVATE_FAILED)));
        await button.click();
        await expect(toast(page, SYSTEM_PROMPT_ACTIVATE_FAILED)).toBeVisible();
        await page.unroute(ACTIVATION);
        await toast(page, SYSTEM_PROMPT_ACTIVATE_FAILED).getByRole('button', { name: 'Close' }).click();
        await expect(page.getByRole('button', { name: `${verb} ${own.promptName}` })).toBeEnabled();
        expect(run.previews.length).toBe(before);
        return;
      }
      // A change done: the preview is read again (also when a read was under way: that one is given up).
      const done = run.active ? SYSTEM_PROMPT_DEACTIVATED : SYSTEM_PROMPT_ACTIVATED;
      await button.click();
      await expect(toast(page, done).first()).toBeVisible();
      run.active = !run.active;
      await expect(page.getByRole('button', { name: `${run.active ? 'Deactivate' : 'Activate'} ${own.promptName}` })).toBeVisible();
      await expect.poll(() => run.previews.length).toBe(before + 1);
      await expectReading(run);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) =>
  e.type === 'preview.choose'
    ? `${e.type}(${e.clientId === null ? 'everyone' : 'own client'})`
    : e.type === 'notice.show'
      ? `change ${e.tone === 'success' ? 'done' : 'failed'}`
      : e.type;

test.describe('system prompts paths (generated from machines/system-prompts.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('system-prompts (e2e paths)', coverageOf(systemPromptsMachine, paths as never), paths.length));
  });

  for (const [n, path] of paths.entries()) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      const own = await setUp(page.request, n + 1);
      try {
        const run: Run = { page, own, scope: null, active: true, previews: [], clients: null, clientsAnswer: null };
        await signInByApi(page, accounts.superuser);
        await holdReads(run);
        await page.goto('/system-prompts');
        await expect(page.getByRole('heading', { name: own.promptName })).toBeVisible();
        // Everyone's preview is being read from the start.
        await expectReading(run);
        for (const event of path.events) {
          await test.step(stepName(event), () => perform(run, event));
        }
      } finally {
        await page.request.delete(`/api/v1/system-prompts/${encodeURIComponent(own.promptId)}`, { headers: own.headers });
      }
    });
  }
});
