import { expect, test, type Page, type Route } from '@playwright/test';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { DASHBOARD_REFRESH_MS, NO_DASHBOARD_DATA } from '../../../contract/usage-reports-constants';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { withinRateLimits } from '../helpers/rate-limits';
import { seededConversation } from '../helpers/seed';
import { apiTokenOf, errorEnvelope, unique, type Step } from './paths-support';
import { AFTER_FAILED, AFTER_READY, usageDashboardMachine, usageDashboardPaths as paths } from './usage-dashboard.paths-model';

/**
 * The usage dashboard's generated paths (machines/usage-dashboard.machine.ts, the model in
 * usage-dashboard.paths-model.ts), driven through the real Usage Summary tab on /home as the organisation's admin.
 * The e2e user has a question and its reply seeded first (test/e2e/helpers/seed.ts; deleted in afterAll), so this
 * month's dashboard has a user to show once computed. The five minutes of the auto-refresh are moved on with
 * Playwright's clock (installed before the page loads). Each request is held until its busy screen has been seen,
 * then answered by the server, or failing (a 500 stub on GET .../dashboard/latest or POST .../dashboard/generate).
 * Everything runs locally and against a deployment alike. Each step is checked against the model's own next
 * snapshot (which of the banner, Retry, Refresh, the panels and 'No dashboard data available.' show). Not in the
 * model: `dashboard.refresh` while loading or refreshing (no button offers it then; the model test covers it).
 */
type Snap = SnapshotFrom<typeof usageDashboardMachine>;
const LATEST = (url: URL) => url.pathname.endsWith('/api/v1/usage-logs/dashboard/latest');
const GENERATE = (url: URL) => url.pathname.endsWith('/api/v1/usage-logs/dashboard/generate');

const summary = (page: Page) => page.getByRole('tabpanel', { name: 'Usage Summary' });
const button = (page: Page, name: string) => summary(page).getByRole('button', { name, exact: true });
const generatedAt = (page: Page) => summary(page).locator('p', { hasText: 'Generated at' }).locator('time');
const spinner = (page: Page) => summary(page).getByRole('status').filter({ hasText: 'Loading dashboard' });
/** The tab's content, busy (aria-busy) while the dashboard is read or computed. */
const busy = (page: Page) => summary(page).locator('[aria-busy]').first();
const topUsers = (page: Page) => summary(page).getByRole('table', { name: /^Top 5 Users/ });

interface Run {
  page: Page;
  before: Snap;
  after: Snap;
  /** The `generated_at` of the dashboard on screen (its <time>'s dateTime), once one is. */
  shownAt: string | null;
}

/** The request the next step makes, held until `release`, then answered by the server or failing. */
let release: () => void = () => {};
let requested = false;

async function hold(page: Page, url: (url: URL) => boolean, fail: boolean) {
  const gate = new Promise<void>((resolve) => (release = resolve));
  requested = false;
  await page.route(
    url,
    async (route: Route) => {
      requested = true;
      await gate;
      return fail ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback();
    },
    { times: 1 },
  );
}

const failing = (next: Step | undefined) => next?.type === 'xstate.error.actor.generate';

/** What the model says the tab shows after a step. */
async function expectScreen(run: Run) {
  const { page, after } = run;
  const panels = summary(page).getByRole('heading', { name: 'Monthly User Activity' });
  const hasDashboard = after.context.dashboard !== null;
  if (after.matches('loading')) {
    await expect(spinner(page)).toBeVisible();
    await expect(busy(page)).toHaveAttribute('aria-busy', 'true');
    return;
  }
  // A retry that computes the first dashboard shows the spinner too: there is nothing else to show meanwhile.
  if (after.matches('refreshing') && !hasDashboard) await expect(spinner(page)).toBeVisible();
  else await expect(spinner(page)).toHaveCount(0);
  if (hasDashboard) {
    await expect(panels).toBeVisible();
    await expect(summary(page).getByRole('heading', { name: /^Top 3 Departments \([A-Z][a-z]+ \d{4}\)$/ })).toBeVisible();
    await expect(summary(page).getByRole('heading', { name: /^Top 5 Users \([A-Z][a-z]+ \d{4}\)$/ })).toBeVisible();
  } else {
    await expect(panels).toHaveCount(0);
    await expect(generatedAt(page)).toHaveCount(0);
  }
  if (after.matches('failed')) {
    await expect(summary(page).getByRole('alert')).toHaveText(after.context.error!);
    await expect(button(page, 'Retry')).toBeEnabled();
    await expect(button(page, 'Refresh')).toHaveCount(0);
    if (!hasDashboard) await expect(summary(page).getByText(NO_DASHBOARD_DATA, { exact: true })).toBeVisible();
    // A failed refresh leaves the last dashboard as it was.
    if (hasDashboard) await expect(generatedAt(page)).toHaveAttribute('datetime', run.shownAt!);
    return;
  }
  await expect(summary(page).getByRole('alert')).toHaveCount(0);
  await expect(button(page, 'Retry')).toHaveCount(0);
  if (after.matches('refreshing')) {
    await expect(busy(page)).toHaveAttribute('aria-busy', 'true');
    // The one shown stays on screen while the new one is computed; Refresh shows it is busy.
    if (hasDashboard) {
      await expect(button(page, 'Refresh')).toHaveAttribute('data-pending', 'true');
      await expect(generatedAt(page)).toHaveAttribute('datetime', run.shownAt!);
    } else {
      await expect(summary(page).getByText(NO_DASHBOARD_DATA, { exact: true })).toHaveCount(0);
    }
    return;
  }
  // ready
  await expect(busy(page)).toHaveAttribute('aria-busy', 'false');
  await expect(button(page, 'Refresh')).toBeEnabled();
  await expect(button(page, 'Refresh')).not.toHaveAttribute('data-pending', 'true');
  await expect(generatedAt(page)).toBeVisible();
}

/** The refresh the step started: its request made (held), then what it ends in answered. */
async function startRefresh(run: Run, next: Step | undefined, press: () => Promise<void>) {
  await hold(run.page, GENERATE, failing(next));
  await press();
  await expect.poll(() => requested, { message: 'a new dashboard is asked for' }).toBe(true);
  await expectScreen(run);
  // A path may end here: the server then computes it as on any refresh.
  if (!next) {
    release();
    run.after = transition(usageDashboardMachine, run.after, { type: 'xstate.done.actor.generate', output: {}, actorId: 'generate' } as never)[0];
    await expectScreen(run);
  }
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, before } = run;
  switch (event.type) {
    case 'xstate.done.actor.fetchLatest':
      release();
      await expectScreen(run);
      run.shownAt = await generatedAt(page).getAttribute('datetime');
      return;
    case 'xstate.error.actor.fetchLatest':
      release();
      return expectScreen(run);
    case 'dashboard.refresh':
      return startRefresh(run, next, () => button(page, before.matches('failed') ? 'Retry' : 'Refresh').click());
    case AFTER_READY:
    case AFTER_FAILED:
      // Five minutes with the tab open.
      return startRefresh(run, next, () => page.clock.fastForward(DASHBOARD_REFRESH_MS));
    case 'xstate.done.actor.generate': {
      release();
      await expectScreen(run);
      const at = (await generatedAt(page).getAttribute('datetime'))!;
      // Computed anew: later than the one it replaces.
      if (run.shownAt) expect(at > run.shownAt).toBe(true);
      run.shownAt = at;
      // This month has at least the seeded question: its person is among the top users.
      await expect(topUsers(page).getByRole('row').nth(1)).toBeVisible();
      return;
    }
    case 'xstate.error.actor.generate':
      release();
      return expectScreen(run);
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) => (e.type === AFTER_READY || e.type === AFTER_FAILED ? '5 min later' : e.type.replace(/^xstate\./, ''));

test.describe('usage-dashboard paths (generated from machines/usage-dashboard.machine.ts)', () => {
  let seeded: string | null = null;

  test.beforeAll(async ({ request }) => {
    seeded = await seededConversation(request, unique('Dashboard path question'));
  });

  test.afterAll(async ({ request }) => {
    console.log(formatCoverage('usage-dashboard (e2e paths)', coverageOf(usageDashboardMachine, paths as never), paths.length));
    if (!seeded) return;
    const token = await apiTokenOf(request, accounts.user);
    const deleted = await withinRateLimits(() => request.delete(`/api/v1/chat/conversations/${seeded}`, { headers: { Authorization: `Bearer ${token}` } }));
    expect(deleted.ok()).toBe(true);
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      test.slow();
      await signInByApi(page, accounts.admin);
      await page.clock.install();
      await hold(page, LATEST, path.events[0]?.type === 'xstate.error.actor.fetchLatest');
      await page.goto('/home');
      await expect(page).toHaveURL(/\/home$/);
      await expect(page.getByRole('tab', { name: 'Usage Summary' })).toHaveAttribute('aria-selected', 'true');
      let [snap] = initialTransition(usageDashboardMachine, path.input as never);
      const run: Run = { page, before: snap, after: snap, shownAt: null };
      await expectScreen(run);
      for (const [i, event] of path.events.entries()) {
        [snap] = transition(usageDashboardMachine, snap, event as never);
        run.before = run.after;
        run.after = snap;
        await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
      }
    });
  }
});
