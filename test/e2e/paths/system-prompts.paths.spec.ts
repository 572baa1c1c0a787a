import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  SYSTEM_PROMPT_ACTIVATE_FAILED,
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_DEACTIVATED,
  SYSTEM_PROMPT_PREVIEW_FAILED,
} from '../../../contract/system-prompts-constants';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, password, signInByApi } from '../helpers/accounts';
import { OWN_CLIENT, systemPromptsMachine, systemPromptsPaths as paths } from './system-prompts.paths-model';
import { errorEnvelope, unique, type Step } from './paths-support';

/**
 * The System Prompts page's generated paths (the preview part of machines/system-prompts.machine.ts, the model in
 * system-prompts.paths-model.ts), driven through the real page. Each path has a client of its own and a prompt for
 * that client (set up through the API, deleted after): the changes a path makes are activating and deactivating
 * that prompt, so no one else's replies change. Forced with stubs, locally only: the preview failing, and an
 * activation failing.
 */
const PREVIEW = (url: URL) => url.pathname.endsWith('/api/v1/system-prompts/preview');
const ACTIVATION = (url: URL) => /\/api\/v1\/system-prompts\/[^/]+\/(activate|deactivate)$/.test(url.pathname);

const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const preview = (page: Page) => page.getByLabel('Composed system prompt');

interface Own {
  clientId: string;
  clientName: string;
  promptId: string;
  promptName: string;
  content: string;
  token: string;
}

/** What the test has: its client and prompt, whose preview is chosen, whether the prompt is active. */
interface Run {
  page: Page;
  own: Own;
  /** null: everyone's. */
  scope: string | null;
  active: boolean;
}

async function setUp(request: APIRequestContext): Promise<Own> {
  const login = await request.post('/api/v1/auth/login', { data: { email: accounts.superuser, password } });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const headers = { authorization: `Bearer ${token}` };
  const packages = ((await (await request.get('/api/v1/packages/', { headers })).json()) as { data: Array<{ id: string }> }).data;
  const clientName = unique('SP Paths');
  const start = new Date();
  const registered = await request.post('/api/v1/clients/register', {
    headers,
    data: {
      client_data: { client_name: clientName, contact_info: { email: `sp-paths-${Date.now()}@example.com` }, origin: 'https://sp.example.com' },
      subscription_data: {
        package_id: packages[0]!.id,
        max_users: 1,
        fair_use: 1,
        start_date: start.toISOString(),
        expire_date: new Date(start.getTime() + 365 * 24 * 3600 * 1000).toISOString(),
      },
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const clientId = ((await registered.json()) as { data: { id: string } }).data.id;
  const promptName = unique('Paths prompt');
  const content = `Sign every answer with ${unique('paths').replace(' ', '-')}.`;
  const created = await request.post('/api/v1/system-prompts/', { headers, data: { name: promptName, content, client_id: clientId } });
  expect(created.ok(), await created.text()).toBe(true);
  const promptId = ((await created.json()) as { data: { id: string } }).data.id;
  return { clientId, clientName, promptId, promptName, content, token };
}

/** The composed prompt shown holds the test's prompt exactly when its client is previewed and the prompt is active. */
async function expectPreview(run: Run) {
  await expect(preview(run.page)).toBeVisible();
  if (run.scope !== null && run.active) await expect(preview(run.page)).toContainText(run.own.content);
  else await expect(preview(run.page)).not.toContainText(run.own.content);
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, own } = run;
  // The preview the next step reads fails: stubbed before this step starts the read.
  if (next?.type === 'xstate.error.actor.preview') await page.route(PREVIEW, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
  switch (event.type) {
    case 'xstate.done.actor.preview':
      await expectPreview(run);
      return;
    case 'xstate.error.actor.preview':
      await expect(page.getByRole('region', { name: 'Composed prompt preview' }).getByRole('alert')).toContainText(SYSTEM_PROMPT_PREVIEW_FAILED);
      await expect(toast(page, SYSTEM_PROMPT_PREVIEW_FAILED)).toBeVisible();
      await page.unroute(PREVIEW);
      return;
    case 'preview.choose': {
      run.scope = event.clientId === OWN_CLIENT ? own.clientId : null;
      await page.getByRole('button', { name: /Preview for$/ }).click();
      await page.getByRole('option', { name: run.scope ? own.clientName : 'Everyone (no client)', exact: true }).click();
      await expect(page.getByRole('button', { name: /Preview for$/ })).toContainText(run.scope ? own.clientName : 'Everyone (no client)');
      return;
    }
    case 'preview.retry':
      await page.getByRole('button', { name: 'Try again' }).click();
      if (next?.type !== 'xstate.error.actor.preview') await expectPreview(run);
      return;
    case 'notice.show': {
      const verb = run.active ? 'Deactivate' : 'Activate';
      const button = page.getByRole('button', { name: `${verb} ${own.promptName}` });
      if (event.tone === 'error') {
        // The activation fails: its toast, and the preview is not read again.
        let reads = 0;
        const count = (r: { url(): string }) => PREVIEW(new URL(r.url())) && reads++;
        page.on('request', count);
        await page.route(ACTIVATION, (route) => route.fulfill(errorEnvelope(500, SYSTEM_PROMPT_ACTIVATE_FAILED)));
        await button.click();
        await expect(toast(page, SYSTEM_PROMPT_ACTIVATE_FAILED)).toBeVisible();
        await page.unroute(ACTIVATION);
        page.off('request', count);
        expect(reads).toBe(0);
        return;
      }
      // A change done: the preview is read again (and shows the change once read).
      const read = page.waitForRequest((r) => PREVIEW(new URL(r.url())));
      await button.click();
      await expect(toast(page, run.active ? SYSTEM_PROMPT_DEACTIVATED : SYSTEM_PROMPT_ACTIVATED).first()).toBeVisible();
      run.active = !run.active;
      await read;
      if (next?.type !== 'xstate.error.actor.preview') await expectPreview(run);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) =>
  e.type === 'preview.choose' ? `${e.type}(${e.clientId === null ? 'everyone' : 'own client'})` : e.type === 'notice.show' ? `change ${e.tone === 'success' ? 'done' : 'failed'}` : e.type;

test.describe('system prompts paths (generated from machines/system-prompts.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('system-prompts (e2e paths)', coverageOf(systemPromptsMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      const own = await setUp(page.request);
      try {
        const run: Run = { page, own, scope: null, active: false };
        await signInByApi(page, accounts.superuser);
        // The page starts reading everyone's preview at once: a failing first read is stubbed before it loads.
        if (path.events[0]?.type === 'xstate.error.actor.preview') {
          await page.route(PREVIEW, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
        }
        await page.goto('/system-prompts');
        await expect(page.getByRole('heading', { name: own.promptName })).toBeVisible();
        for (const [i, event] of path.events.entries()) {
          await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
        }
      } finally {
        await page.request.delete(`/api/v1/system-prompts/${encodeURIComponent(own.promptId)}`, {
          headers: { authorization: `Bearer ${own.token}` },
        });
      }
    });
  }
});
