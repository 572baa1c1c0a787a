import type { SnapshotFrom } from 'xstate';
import { REPORT_FETCH_FAILED } from '../../../contract/usage-reports-constants';
import { loadFailure } from '../../../machines/load-failure';
import { usageReportsMachine } from '../../../machines/usage-reports.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof usageReportsMachine>;

/** The model's year; the browser's is the real current year (the steps read years relative to it). */
export const MODEL_YEAR = 2026;
/** The model's department and unit: the demo organisation's Engineering and its Platform unit (the demo user's). */
export const D1 = 'd1';
export const U1 = 'u1';

/**
 * The person, on /home's Reports tab (admin): waits for the departments (or sees them fail, forced with a stub);
 * picks Report by Users / Report by Department, Engineering or no department, the Platform unit, last year, one
 * month, Select All / Deselect All, Reset, Apply Filters; with results: sorts by Unit, shows 20 rows a page,
 * Export CSV (the download saved, or refused: forced with a stub); a page of results that fails to load
 * (`notice.show`, the pager's failure passed on: forced with a stub while the person picks 50 rows a page).
 *
 * Not generated for the browser: page 2 (the demo data has one page of rows, and a deployment's organisation has
 * however many it has: a second page cannot be counted on), and a year that is not offered (the list has no such
 * option; the model test covers the guard).
 */
function eventsFor(s: Snap): Step[] {
  if (!s.context.departmentsLoaded) {
    return [
      { type: 'xstate.done.actor.fetchDepartments', output: [{ id: D1, name: 'Engineering', units: [{ id: U1, name: 'Platform' }] }], actorId: 'fetchDepartments' },
      { type: 'xstate.error.actor.fetchDepartments', error: loadFailure('HTTP 500', null), actorId: 'fetchDepartments' },
    ];
  }
  const steps: Step[] = [
    { type: 'filter.reportType', reportType: s.context.reportType === 'department' ? 'user' : 'department' },
    { type: 'filter.departments', ids: s.context.filters.departmentIds.length ? [] : [D1] },
    { type: 'filter.units', ids: [U1] },
    { type: 'filter.year', year: MODEL_YEAR - 1 },
    { type: 'filter.months', months: [1] },
    { type: 'filter.toggleAllMonths' },
    { type: 'filter.reset' },
    { type: 'filter.apply' },
  ];
  switch (valueName(s.value)) {
    case 'showing.viewing':
      return [
        ...steps,
        { type: 'report.sort', column: 'unit_name' },
        { type: 'report.pageSize', pageSize: 20 },
        { type: 'report.export' },
        { type: 'notice.show', tone: 'error', text: REPORT_FETCH_FAILED(s.context.applied!.reportType) },
      ];
    case 'showing.exporting':
      return [
        { type: 'xstate.done.actor.exportReport', output: 'report.csv', actorId: 'exportReport' },
        { type: 'xstate.error.actor.exportReport', error: loadFailure('HTTP 500', null), actorId: 'exportReport' },
      ];
    default:
      return steps;
  }
}


const generated = maximalPaths({
  machine: usageReportsMachine,
  inputs: [{ currentYear: MODEL_YEAR }],
  events: eventsFor as never,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.reportType,
      s.context.filters.departmentIds.length > 0,
      s.context.filters.unitIds.length > 0,
      s.context.filters.months.length,
      s.context.departmentsLoaded,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.departmentsLoaded]),
  edgeKeys: true,
});

export { usageReportsMachine };
/** The fewest of the longest paths that reach every state and transition the model reaches. */
export const usageReportsPaths = asSteps<{ currentYear: number }>(coveringPaths(usageReportsMachine, generated));
