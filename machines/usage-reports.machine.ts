import { assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { Department } from '../contract/departments';
import { DEPARTMENTS_FETCH_FAILED } from '../contract/departments-constants';
import {
  REPORT_EXPORT_FAILED,
  REPORT_EXPORTED,
  REPORT_FETCH_FAILED,
  REPORT_PAGE_SIZE,
  REPORT_YEARS,
  type ReportType,
} from '../contract/usage-reports-constants';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { nextSort, pagerMachine, type PagerInput, type PagerSort } from './pager.machine';
import { report } from './report';

/**
 * The admin's Reports tab (administration spec sections 2, 3 "Report filter", 4 "Report tabs", 8, 9).
 *
 * The machine starts when the tab opens (the view mounts it then), so opening the tab loads the departments
 * (`fetchDepartments`, failure: 'Failed to fetch departments') and starts from the default filters, as the spec's
 * "switching to Reports loads the departments and resets the filters" asks.
 *
 * Filters being edited live here (`filters`); Apply Filters copies them to the results. States:
 * - `idle`: no results ('No report data / Apply filters above to generate a report.').
 * - `showing` (the shared pager `list`, replace mode, REPORT_PAGE_SIZE a page, sorted by query_count desc first):
 *   `viewing` -> `exporting` (tag `exporting`, `exportReport`: the whole result as CSV, with the filters and sort
 *   shown) -> `viewing` with the spec's success or failure toast. Sort, page size and page go to the pager, which
 *   toggles a column's direction (a new one starts ascending) and goes back to page 1 on a new page size.
 * Changing the report type clears the results and their page (-> `idle`: the other report has other columns).
 * Changing the departments clears the unit selection. Reset restores the default filters (the department report,
 * every department, unit and month of the current year) and clears the results.
 * What may be pressed is decided by guards here and read by the view with `can()`: Apply needs at least one month
 * (an empty month list would mean "all twelve" to the server, the opposite of what the person sees), Units needs
 * a department, Export needs results on screen.
 */

export const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** The page sizes offered under the table (the API allows up to 100). */
export const REPORT_PAGE_SIZES = [10, 20, 50, 100];

/** The server's default order of both reports. */
export const DEFAULT_REPORT_SORT: PagerSort = { column: 'query_count', direction: 'desc' };

/** What the form holds. */
export interface ReportFilters {
  departmentIds: string[];
  unitIds: string[];
  year: number;
  months: number[];
}

/** What the pager and the export ask the server for: the filters of one report type. */
export interface AppliedReport extends ReportFilters {
  reportType: ReportType;
}

/** What the `exportReport` slot is asked for. */
export interface ReportExportRequest extends AppliedReport {
  sort: PagerSort;
}

export interface UsageReportsInput {
  /** The current (UTC) year: the year list is it and the REPORT_YEARS - 1 before it. */
  currentYear: number;
}

export interface UsageReportsContext {
  currentYear: number;
  reportType: ReportType;
  filters: ReportFilters;
  departments: Department[];
  departmentsLoaded: boolean;
  /** What the results on screen were asked with (null in `idle`). */
  applied: AppliedReport | null;
  /** The results' order (the pager's, mirrored for the export). */
  sort: PagerSort;
}

export type UsageReportsEvent =
  | { type: 'filter.reportType'; reportType: ReportType }
  | { type: 'filter.departments'; ids: string[] }
  | { type: 'filter.units'; ids: string[] }
  | { type: 'filter.year'; year: number }
  | { type: 'filter.months'; months: number[] }
  /** Select All, or Deselect All when every month is chosen. */
  | { type: 'filter.toggleAllMonths' }
  | { type: 'filter.reset' }
  | { type: 'filter.apply' }
  | { type: 'report.sort'; column: string }
  | { type: 'report.pageSize'; pageSize: number }
  | { type: 'report.goTo'; page: number }
  | { type: 'report.export' }
  /** From the list: its failure toast, passed on. */
  | Notice
  | DoneActorEvent<Department[], 'fetchDepartments'>
  | ErrorActorEvent<unknown, 'fetchDepartments'>
  | DoneActorEvent<unknown, 'exportReport'>
  | ErrorActorEvent<unknown, 'exportReport'>;

/** The year choices, newest first. */
export const yearChoices = (currentYear: number) => Array.from({ length: REPORT_YEARS }, (_, i) => currentYear - i);

export const defaultFilters = (currentYear: number): ReportFilters => ({ departmentIds: [], unitIds: [], year: currentYear, months: [...ALL_MONTHS] });

/** The units a person may pick: those of the chosen departments. */
export function unitChoices(departments: Department[], departmentIds: string[]) {
  const chosen = new Set(departmentIds);
  return departments.filter((d) => chosen.has(d.id)).flatMap((d) => d.units.map((u) => ({ ...u, departmentName: d.name })));
}

export const allMonthsChosen = (months: number[]) => ALL_MONTHS.every((m) => months.includes(m));

const sorted = (list: number[]) => [...new Set(list)].filter((m) => ALL_MONTHS.includes(m)).sort((a, b) => a - b);

export function reportListInput(applied: AppliedReport): PagerInput {
  const failed = REPORT_FETCH_FAILED(applied.reportType);
  return {
    pageSize: REPORT_PAGE_SIZE,
    mode: 'replace',
    filters: { ...applied },
    sort: DEFAULT_REPORT_SORT,
    messages: { load: failed, loadMore: failed },
  };
}

const appliedOf = (context: UsageReportsContext): AppliedReport => ({ reportType: context.reportType, ...context.filters });

export const usageReportsMachine = setup({
  types: {
    context: {} as UsageReportsContext,
    events: {} as UsageReportsEvent,
    input: {} as UsageReportsInput,
    emitted: {} as Notice,
    tags: {} as 'exporting',
    children: {} as { list: 'list'; fetchDepartments: 'fetchDepartments'; exportReport: 'exportReport' },
  },
  actors: {
    list: pagerMachine,
    fetchDepartments: notProvided<Department[], void>('fetchDepartments'),
    exportReport: notProvided<unknown, ReportExportRequest>('exportReport'),
  },
  guards: {
    isOtherType: ({ context, event }) => {
      assertEvent(event, 'filter.reportType');
      return event.reportType !== context.reportType;
    },
    hasDepartments: ({ context }) => context.filters.departmentIds.length > 0,
    hasMonths: ({ context }) => context.filters.months.length > 0,
    isOfferedYear: ({ context, event }) => {
      assertEvent(event, 'filter.year');
      return yearChoices(context.currentYear).includes(event.year);
    },
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    setDepartments: assign(({ context, event }) => {
      assertEvent(event, 'filter.departments');
      // Spec section 4: changing the departments clears the unit selection.
      return { filters: { ...context.filters, departmentIds: [...new Set(event.ids)], unitIds: [] } };
    }),
    setUnits: assign(({ context, event }) => {
      assertEvent(event, 'filter.units');
      const allowed = new Set(unitChoices(context.departments, context.filters.departmentIds).map((u) => u.id));
      return { filters: { ...context.filters, unitIds: [...new Set(event.ids)].filter((id) => allowed.has(id)) } };
    }),
    setYear: assign(({ context, event }) => {
      assertEvent(event, 'filter.year');
      return { filters: { ...context.filters, year: event.year } };
    }),
    setMonths: assign(({ context, event }) => {
      assertEvent(event, 'filter.months');
      return { filters: { ...context.filters, months: sorted(event.months) } };
    }),
    toggleAllMonths: assign(({ context }) => ({
      filters: { ...context.filters, months: allMonthsChosen(context.filters.months) ? [] : [...ALL_MONTHS] },
    })),
    setReportType: assign(({ event }) => {
      assertEvent(event, 'filter.reportType');
      return { reportType: event.reportType, applied: null };
    }),
    resetFilters: assign(({ context }) => ({ reportType: 'department' as const, filters: defaultFilters(context.currentYear), applied: null })),
    apply: assign(({ context }) => ({ applied: appliedOf(context) })),
    clearResults: assign({ applied: null, sort: DEFAULT_REPORT_SORT }),
    /** The pager toggles its own sort by the same rule; the copy here is what the export asks for. */
    setSort: assign(({ context, event }) => {
      assertEvent(event, 'report.sort');
      return { sort: nextSort(context.sort, event.column) };
    }),
    filterList: sendTo('list', ({ context }) => ({ type: 'pager.filter' as const, filters: { ...context.applied! } })),
    reportExported: report(({ context }: { context: UsageReportsContext }) => notice('success', REPORT_EXPORTED[context.applied!.reportType])),
    reportExportFailed: report(({ context }: { context: UsageReportsContext }) => notice('error', REPORT_EXPORT_FAILED(context.applied!.reportType))),
    reportDepartmentsFailed: report(() => notice('error', DEPARTMENTS_FETCH_FAILED)),
  },
}).createMachine({
  id: 'usageReports',
  context: ({ input }) => ({
    currentYear: input.currentYear,
    reportType: 'department',
    filters: defaultFilters(input.currentYear),
    departments: [],
    departmentsLoaded: false,
    applied: null,
    sort: DEFAULT_REPORT_SORT,
  }),
  invoke: {
    id: 'fetchDepartments',
    src: 'fetchDepartments',
    onDone: { actions: assign(({ event }) => ({ departments: event.output, departmentsLoaded: true })) },
    onError: { actions: ['reportDepartmentsFailed', assign({ departmentsLoaded: true })] },
  },
  initial: 'idle',
  on: {
    'filter.departments': { actions: 'setDepartments' },
    'filter.units': { guard: 'hasDepartments', actions: 'setUnits' },
    'filter.year': { guard: 'isOfferedYear', actions: 'setYear' },
    'filter.months': { actions: 'setMonths' },
    'filter.toggleAllMonths': { actions: 'toggleAllMonths' },
    'filter.reportType': { guard: 'isOtherType', target: '.idle', actions: 'setReportType' },
    'filter.reset': { target: '.idle', actions: 'resetFilters' },
  },
  states: {
    idle: {
      description: 'No report yet: No report data, Apply filters above to generate a report.',
      on: { 'filter.apply': { guard: 'hasMonths', target: 'showing', actions: 'apply' } },
    },
    showing: {
      description: 'The report table of the applied filters, a page at a time.',
      invoke: { id: 'list', src: 'list', input: ({ context, self }) => ({ ...reportListInput(context.applied!), parent: self }) },
      exit: 'clearResults',
      initial: 'viewing',
      on: {
        'filter.apply': { guard: 'hasMonths', actions: ['apply', 'filterList'] },
        'report.sort': { actions: ['setSort', sendTo('list', ({ event }) => ({ type: 'pager.sort' as const, column: event.column }))] },
        'report.pageSize': { actions: sendTo('list', ({ event }) => ({ type: 'pager.pageSize' as const, pageSize: event.pageSize })) },
        'report.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
        'notice.show': { actions: 'passNotice' },
      },
      states: {
        viewing: {
          description: 'The person reads, sorts and pages the report.',
          on: { 'report.export': 'exporting' },
        },
        exporting: {
          description: 'The whole report is being exported as CSV.',
          tags: ['exporting'],
          invoke: {
            id: 'exportReport',
            src: 'exportReport',
            // The same rows as on screen: the applied filters and the sort shown.
            input: ({ context }) => ({ ...context.applied!, sort: context.sort }),
            onDone: { target: 'viewing', actions: 'reportExported' },
            onError: { target: 'viewing', actions: 'reportExportFailed' },
          },
        },
      },
    },
  },
});

export type UsageReportsMachine = typeof usageReportsMachine;
