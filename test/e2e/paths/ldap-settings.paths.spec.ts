import { expect, test, type Page, type Request } from '@playwright/test';
import {
  LDAP_SETTINGS_DELETED,
  LDAP_SETTINGS_FETCH_FAILED,
  LDAP_SETTINGS_SAVE_FAILED,
  LDAP_SETTINGS_SAVED,
  LDAP_URL_REQUIRED,
} from '../../../contract/ldap-settings-constants';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { registerClient, superuserHeaders } from '../helpers/clients-area';
import { CHANGED_URL, ldapSettingsMachine, ldapSettingsPaths as paths, STORED_URL, TEMPLATE } from './ldap-settings.paths-model';
import { unique, type Step } from './paths-support';

/**
 * The Directory Settings dialog's generated paths (machines/ldap-settings.machine.ts, the model in
 * ldap-settings.paths-model.ts), driven through the Clients page as the superuser, on a client of the test's own
 * (registered through the API; settings stored through the API first when the path starts with them). Faults are
 * forced in the browser with stubs (the network dropped), locally and against a deployment alike.
 */
const SETTINGS = (url: URL) => /\/api\/v1\/clients\/[^/]+\/ldap-settings$/.test(url.pathname);

interface Run {
  page: Page;
  client: string;
  url: string;
  puts: Request[];
}

const dialog = (run: Run) => run.page.getByRole('dialog', { name: `Directory Settings - ${run.client}` });
const urlBox = (run: Run) => dialog(run).getByRole('textbox', { name: 'Directory URL' });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

/** Drops the next `method` call to the settings (the network failing). */
async function dropNext(page: Page, method: string) {
  await page.route(SETTINGS, (route) => (route.request().method() === method ? route.abort('failed') : route.fallback()));
}

async function open(run: Run) {
  const { page } = run;
  await page.goto('/clients');
  await page.getByPlaceholder('Search clients by name or email...').fill(run.client);
  const row = page.getByRole('row').filter({ hasText: run.client });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Directory Settings for ${run.client}` }).click();
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (event.type) {
    case 'xstate.done.actor.fetchSettings':
      await expect(urlBox(run)).toHaveValue(event.output ? STORED_URL : '');
      run.url = event.output ? STORED_URL : '';
      await expect(dialog(run).getByRole('button', { name: 'Remove Directory' })).toHaveCount(event.output ? 1 : 0);
      return;
    case 'xstate.error.actor.fetchSettings':
      await expect(dialog(run).getByText(LDAP_SETTINGS_FETCH_FAILED)).toBeVisible();
      await expect(urlBox(run)).toHaveCount(0);
      await page.unroute(SETTINGS);
      return;
    case 'ldap.retry':
      await dialog(run).getByRole('button', { name: 'Try again' }).click();
      await expect(urlBox(run)).toBeVisible();
      return;
    case 'ldap.change': {
      const patch = event.patch as { url: string; bindDnTemplate?: string };
      await urlBox(run).fill(patch.url);
      if (patch.bindDnTemplate) await dialog(run).getByRole('textbox', { name: 'Bind DN Template' }).fill(patch.bindDnTemplate);
      run.url = patch.url;
      await expect(dialog(run).getByText(LDAP_URL_REQUIRED)).toHaveCount(0);
      return;
    }
    case 'ldap.save': {
      const sent = run.puts.length;
      if (run.url === '') {
        // Refused in the form with the server's own sentence; nothing is sent.
        await dialog(run).getByRole('button', { name: 'Save Settings' }).click();
        await expect(dialog(run).getByText(LDAP_URL_REQUIRED)).toBeVisible();
        expect(run.puts).toHaveLength(sent);
        return;
      }
      if (next?.type === 'xstate.error.actor.saveSettings') await dropNext(page, 'PUT');
      const request = page.waitForRequest((r) => r.method() === 'PUT' && SETTINGS(new URL(r.url())));
      await dialog(run).getByRole('button', { name: 'Save Settings' }).click();
      expect((await request).postDataJSON()).toMatchObject({ url: run.url, bind_dn_template: TEMPLATE, search_filter: null });
      return;
    }
    case 'xstate.done.actor.saveSettings':
      await expect(toast(page, LDAP_SETTINGS_SAVED).first()).toBeVisible();
      await expect(dialog(run)).toHaveCount(0);
      return;
    case 'xstate.error.actor.saveSettings':
      await expect(dialog(run).getByText(LDAP_SETTINGS_SAVE_FAILED)).toBeVisible();
      await expect(urlBox(run)).toHaveValue(run.url);
      await page.unroute(SETTINGS);
      return;
    case 'ldap.remove':
      if (next?.type === 'xstate.error.actor.removeSettings') await dropNext(page, 'DELETE');
      await dialog(run).getByRole('button', { name: 'Remove Directory' }).click();
      return;
    case 'xstate.done.actor.removeSettings':
      await expect(toast(page, LDAP_SETTINGS_DELETED).first()).toBeVisible();
      await expect(dialog(run)).toHaveCount(0);
      return;
    case 'xstate.error.actor.removeSettings':
      await expect(dialog(run).getByText(LDAP_SETTINGS_SAVE_FAILED)).toBeVisible();
      await page.unroute(SETTINGS);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) => {
  if (e.type === 'xstate.done.actor.fetchSettings') return `${e.type}(${e.output ? 'stored' : 'none'})`;
  if (e.type === 'ldap.change') return `${e.type}(${(e.patch as { url: string }).url === CHANGED_URL ? 'valid' : 'no url'})`;
  return e.type;
};

test.describe('directory settings paths (generated from machines/ldap-settings.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('ldap-settings (e2e paths)', coverageOf(ldapSettingsMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page, request }) => {
      const run: Run = { page, client: unique('Directory Paths'), url: '', puts: [] };
      const { id } = await registerClient(request, run.client);
      if (path.events.some((e) => e.type === 'xstate.done.actor.fetchSettings' && e.output)) {
        const answer = await request.put(`/api/v1/clients/${id}/ldap-settings`, {
          headers: await superuserHeaders(request),
          data: { url: STORED_URL, bind_dn_template: TEMPLATE },
        });
        expect(answer.ok(), await answer.text()).toBe(true);
      }
      page.on('request', (r) => {
        if (r.method() === 'PUT' && SETTINGS(new URL(r.url()))) run.puts.push(r);
      });
      await signInByApi(page, accounts.superuser);
      if (path.events[0]?.type === 'xstate.error.actor.fetchSettings') await dropNext(page, 'GET');
      await open(run);
      for (const [i, event] of path.events.entries()) {
        await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
      }
    });
  }
});
