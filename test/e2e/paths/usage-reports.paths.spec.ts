import { expect, test, type Download, type Page } from '@playwright/test';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { DEPARTMENTS_FETCH_FAILED } from '../../../contract/departments-constants';
import { APPLY_FILTERS_HINT, REPORT_EXPORT_FAILED, REPORT_EXPORTED, REPORT_TYPE_LABELS, type ReportType } from '../../../contract/usage-reports-constants';
import { reportFileName } from '../../../shared/report-files';
import { ALL_MONTHS } from '../../../machines/usage-reports.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { seededConversation } from '../helpers/seed';
import { errorEnvelope, unique, type Step } from './paths-support';
import { MODEL_YEAR, usageReportsMachine, usageReportsPaths as paths } from './usage-reports.paths-model';

/**
 * The reports tab's generated paths (machines/usage-reports.machine.ts, the model in usage-reports.paths-model.ts),
 * driven through the real Reports tab on /home as the organisation's admin. The model's `d1`/`u1` are the demo
 * Engineering department and its Platform unit; the demo user (Engineering / Platform) has a question and its reply
 * seeded first (with its usage entry, test/e2e/helpers/seed.ts), so this month's reports have a row. Each step is
 * checked against the model's own next snapshot (what is enabled, what is chosen, whether results show). Forced
 * with stubs, locally and against a deployment alike: the departments' read failing, an export refused, and a page
 * of results failing to load (a 500 on the report's next page, asked for when the person picks 50 rows a page).
 */
type Snap = SnapshotFrom<typeof usageReportsMachine>;
const MONTHS = ALL_MONTHS.map((m) => new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, m - 1, 1))));
const DEPARTMENTS = (url: URL) => url.pathname.endsWith('/api/v1/departments/');
const EXPORT = (url: URL) => url.pathname.includes('/api/v1/usage-logs/admin/') && url.searchParams.get('export') === 'true';
/** A page of the report table (not the export). */
const REPORT_PAGE = (url: URL) => url.pathname.includes('/api/v1/usage-logs/admin/') && url.searchParams.get('export') !== 'true';

interface Run {
  page: Page;
  /** The model's snapshot before and after the step. */
  before: Snap;
  after: Snap;
  realYear: number;
  download: Promise<Download> | null;
}

const button = (page: Page, label: RegExp | string) => page.getByRole('button', { name: label });
const units = (page: Page) => button(page, /Units/);
const apply = (page: Page) => button(page, 'Apply Filters');
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const realYearOf = (run: Run, modelYear: number) => run.realYear - (MODEL_YEAR - modelYear);

async function pick(page: Page, label: RegExp, option: string) {
  await button(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

/** Clicks the options of an open multi-select whose choice differs between `from` and `to`, then closes it. */
async function toggleOptions(page: Page, label: RegExp, names: string[], from: Set<string>, to: Set<string>) {
  await button(page, label).click();
  for (const name of names) if (from.has(name) !== to.has(name)) await page.getByRole('option', { name, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

async function expectToastOnce(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
  await expect(toast(page, text)).toHaveCount(0);
}

/** What the model says the screen shows after a step. */
async function expectScreen(run: Run) {
  const { page, after } = run;
  const type = after.context.reportType as ReportType;
  await expect(button(page, /Report Type/)).toContainText(REPORT_TYPE_LABELS[type]);
  await (after.can({ type: 'filter.apply' }) ? expect(apply(page)).toBeEnabled() : expect(apply(page)).toBeDisabled());
  await (after.can({ type: 'filter.units', ids: [] }) ? expect(units(page)).toBeEnabled() : expect(units(page)).toBeDisabled());
  await expect(button(page, /Year/)).toContainText(String(realYearOf(run, after.context.filters.year)));
  await expect(button(page, all(after) ? 'Deselect All' : 'Select All')).toBeVisible();
  if (after.matches('idle')) {
    await expect(page.getByText(APPLY_FILTERS_HINT)).toBeVisible();
    await expect(button(page, 'Export CSV')).toHaveCount(0);
  } else {
    await expect(page.getByRole('heading', { name: new RegExp(`^${REPORT_TYPE_LABELS[after.context.applied!.reportType as ReportType]}`) })).toBeVisible();
    const sort = after.context.sort;
    const header = page.getByRole('columnheader', { name: sort.column === 'unit_name' ? 'Unit' : 'Queries', exact: true });
    await expect(header).toHaveAttribute('aria-sort', sort.direction === 'asc' ? 'ascending' : 'descending');
    // While exporting the button is pending only as long as the download takes: too short to look at reliably.
    if (after.matches({ showing: 'viewing' })) await expect(button(page, 'Export CSV')).toBeEnabled();
  }
}

const all = (s: Snap) => ALL_MONTHS.every((m) => s.context.filters.months.includes(m));

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, before, after } = run;
  switch (event.type) {
    case 'xstate.done.actor.fetchDepartments':
      await expect(button(page, /Departments/)).toContainText('All departments');
      return;
    case 'xstate.error.actor.fetchDepartments':
      await expectToastOnce(page, DEPARTMENTS_FETCH_FAILED);
      await page.unroute(DEPARTMENTS);
      return;
    case 'filter.reportType':
      await pick(page, /Report Type/, REPORT_TYPE_LABELS[event.reportType as ReportType]);
      return;
    case 'filter.departments':
      await toggleOptions(page, /Departments/, ['Engineering'], new Set(before.context.filters.departmentIds.length ? ['Engineering'] : []), new Set(after.context.filters.departmentIds.length ? ['Engineering'] : []));
      return;
    case 'filter.units':
      // Guard false: the select is disabled, there is nothing to pick.
      if (!before.can(event as never)) return expect(units(page)).toBeDisabled();
      await toggleOptions(page, /Units/, ['Platform'], new Set(before.context.filters.unitIds.length ? ['Platform'] : []), new Set(['Platform']));
      await expect(units(page)).toContainText('Platform');
      return;
    case 'filter.year':
      await pick(page, /Year/, String(realYearOf(run, event.year as number)));
      return;
    case 'filter.months': {
      const names = (s: Snap) => new Set(s.context.filters.months.map((m) => MONTHS[m - 1]!));
      await toggleOptions(page, /Months/, MONTHS, names(before), names(after));
      await expect(button(page, /Months/)).toContainText(after.context.filters.months.length <= 2 ? MONTHS[after.context.filters.months[0]! - 1]! : 'selected');
      return;
    }
    case 'filter.toggleAllMonths':
      await button(page, all(before) ? 'Deselect All' : 'Select All').click();
      return;
    case 'filter.reset':
      await button(page, 'Reset').click();
      return;
    case 'filter.apply':
      if (!before.can(event as never)) return expect(apply(page)).toBeDisabled();
      await apply(page).click();
      return;
    case 'report.sort':
      await page.getByRole('columnheader', { name: 'Unit', exact: true }).getByRole('button').click();
      return;
    case 'report.pageSize':
      await pick(page, /Rows per page/, '20');
      await expect(button(page, /Rows per page/)).toContainText('20');
      return;
    case 'report.export':
      if (next?.type === 'xstate.error.actor.exportReport') {
        await page.route(EXPORT, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      } else if (next?.type === 'xstate.done.actor.exportReport') {
        run.download = page.waitForEvent('download');
      }
      await button(page, 'Export CSV').click();
      return;
    case 'xstate.done.actor.exportReport': {
      const applied = before.context.applied!;
      const download = await run.download!;
      run.download = null;
      const months = applied.months.length === ALL_MONTHS.length ? undefined : applied.months;
      expect(download.suggestedFilename()).toBe(reportFileName(applied.reportType as ReportType, realYearOf(run, applied.year), months));
      await expectToastOnce(page, REPORT_EXPORTED[applied.reportType as ReportType]);
      return;
    }
    case 'notice.show': {
      // The next page of the table fails (picking 50 rows a page asks for it): the toast, the rows shown stay.
      const rows = page.getByRole('row');
      // Counted once the report has come (a count taken while it loads saw only the header row on a busy CI machine).
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const shown = await rows.count();
      await page.route(REPORT_PAGE, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await pick(page, /Rows per page/, '50');
      await expectToastOnce(page, event.text as string);
      await page.unroute(REPORT_PAGE);
      await expect(rows).toHaveCount(shown);
      return;
    }
    case 'xstate.error.actor.exportReport':
      await expectToastOnce(page, REPORT_EXPORT_FAILED(before.context.applied!.reportType as ReportType));
      await page.unroute(EXPORT);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) => e.type.replace(/^xstate\./, '');

test.describe('usage-reports paths (generated from machines/usage-reports.machine.ts)', () => {
  test.beforeAll(async ({ request }) => {
    await seededConversation(request, unique('Reports path question'));
  });
  test.afterAll(() => {
    console.log(formatCoverage('usage-reports (e2e paths)', coverageOf(usageReportsMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      test.slow();
      await signInAndLand(page, accounts.admin, /\/home$/);
      if (path.events[0]?.type === 'xstate.error.actor.fetchDepartments') {
        await page.route(DEPARTMENTS, (route) => (route.request().method() === 'GET' ? route.fulfill(errorEnvelope(500, 'Internal Server Error')) : route.fallback()));
      }
      await page.getByRole('tab', { name: 'Reports' }).click();
      let [snap] = initialTransition(usageReportsMachine, path.input as never);
      const run: Run = { page, before: snap, after: snap, realYear: new Date().getUTCFullYear(), download: null };
      for (const [i, event] of path.events.entries()) {
        [snap] = transition(usageReportsMachine, snap, event as never);
        run.before = run.after;
        run.after = snap;
        await test.step(stepName(event), async () => {
          await perform(run, event, path.events[i + 1]);
          await expectScreen(run);
        });
      }
    });
  }
});
