import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, fromPromise, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { Department } from '../../contract/departments';
import { DEPARTMENTS_FETCH_FAILED } from '../../contract/departments-constants';
import { REPORT_EXPORT_FAILED, REPORT_EXPORTED, REPORT_FETCH_FAILED, REPORT_PAGE_SIZE } from '../../contract/usage-reports-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { pagerMachine, type PageRequest, type PageResult } from '../../machines/pager.machine';
import {
  ALL_MONTHS,
  DEFAULT_REPORT_SORT,
  defaultFilters,
  reportListInput,
  unitChoices,
  usageReportsMachine,
  yearChoices,
  type ReportExportRequest,
} from '../../machines/usage-reports.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof usageReportsMachine>;
type Ev = EventFrom<typeof usageReportsMachine>;

const YEAR = 2026;
const departments: Department[] = [
  { id: 'd1', name: 'Finance', units: [{ id: 'u1', name: 'Payroll' }, { id: 'u2', name: 'Audit' }] },
  { id: 'd2', name: 'Legal', units: [{ id: 'u3', name: 'Contracts' }] },
];
const dropped = loadFailure('Network Error', null);

let listInputs: unknown[] = [];
let toList: EventObject[] = [];
let exports: ReportExportRequest[] = [];
let departmentCalls = 0;
let emitted: Notice[] = [];
let seen = { list: 0, emitted: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  usageReportsMachine.provide({
    actors: {
      list: fromCallback<EventObject, unknown>(({ input, receive }) => {
        listInputs.push(input);
        receive((e) => toList.push(e));
      }) as never,
      fetchDepartments: pendingActor<Department[], void>(() => departmentCalls++),
      exportReport: pendingActor<unknown, ReportExportRequest>((i) => exports.push(i)),
    },
  });

function eventsFor(s: Snap): Ev[] {
  const filters: Ev[] = [
    { type: 'filter.reportType', reportType: 'user' },
    { type: 'filter.reportType', reportType: 'department' },
    { type: 'filter.departments', ids: ['d1'] },
    { type: 'filter.departments', ids: [] },
    { type: 'filter.units', ids: ['u1', 'u3'] },
    { type: 'filter.year', year: YEAR - 4 },
    { type: 'filter.year', year: YEAR - 5 },
    { type: 'filter.months', months: [3, 1, 3] },
    { type: 'filter.months', months: [] },
    { type: 'filter.toggleAllMonths' },
    { type: 'filter.reset' },
    { type: 'filter.apply' },
  ];
  if (!s.context.departmentsLoaded) {
    filters.push(
      { type: 'xstate.done.actor.fetchDepartments', output: departments, actorId: 'fetchDepartments' } as Ev,
      { type: 'xstate.error.actor.fetchDepartments', error: dropped, actorId: 'fetchDepartments' } as Ev,
    );
  }
  if (s.matches('idle')) return [...filters, { type: 'report.export' }, { type: 'report.sort', column: 'unit_name' }];
  const results: Ev[] = [
    { type: 'report.sort', column: 'unit_name' },
    { type: 'report.pageSize', pageSize: 20 },
    { type: 'report.goTo', page: 2 },
    notice('error', REPORT_FETCH_FAILED('department')),
    { type: 'report.export' },
  ];
  if (s.matches({ showing: 'exporting' })) {
    results.push(
      { type: 'xstate.done.actor.exportReport', output: 'department-report-2026.csv', actorId: 'exportReport' } as Ev,
      { type: 'xstate.error.actor.exportReport', error: dropped, actorId: 'exportReport' } as Ev,
    );
  }
  return [...filters, ...results];
}

function check(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string } & Record<string, unknown>) | null;
  const fresh = { list: toList.slice(seen.list), emitted: emitted.slice(seen.emitted) };
  seen = { list: toList.length, emitted: emitted.length };
  const showing = s.matches('showing');

  // Opening the tab reads the departments once.
  expect(departmentCalls).toBe(1);
  // Results exist exactly while shown; the pager starts with the applied filters, 10 a page, query count desc.
  expect(Boolean(s.children.list)).toBe(showing);
  expect(s.context.applied !== null).toBe(showing);
  if (!showing) expect(s.context.sort).toEqual(DEFAULT_REPORT_SORT);
  if (showing && !p?.matches('showing')) {
    expect(listInputs.at(-1)).toEqual({ ...reportListInput(s.context.applied!), parent: expect.anything() });
    expect(listInputs.at(-1)).toMatchObject({ pageSize: REPORT_PAGE_SIZE, mode: 'replace', sort: DEFAULT_REPORT_SORT });
  }
  expect(s.hasTag('exporting')).toBe(s.matches({ showing: 'exporting' }));
  if (s.matches({ showing: 'exporting' }) && !p?.matches({ showing: 'exporting' })) {
    expect(exports.at(-1)).toEqual({ ...s.context.applied, sort: s.context.sort });
  }

  // What the view enables, from the machine.
  expect(s.can({ type: 'filter.apply' })).toBe(s.context.filters.months.length > 0);
  expect(s.can({ type: 'filter.units', ids: ['u1'] })).toBe(s.context.filters.departmentIds.length > 0);
  expect(s.can({ type: 'report.export' })).toBe(s.matches({ showing: 'viewing' }));
  // Invariants of the form.
  const allowedUnits = unitChoices(s.context.departments, s.context.filters.departmentIds).map((u) => u.id);
  expect(s.context.filters.unitIds.every((id) => allowedUnits.includes(id))).toBe(true);
  expect(yearChoices(YEAR)).toContain(s.context.filters.year);
  expect(s.context.filters.months).toEqual([...s.context.filters.months].sort((a, b) => a - b));

  const list: EventObject[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'xstate.done.actor.fetchDepartments':
      expect(s.context.departments).toEqual(departments);
      break;
    case 'xstate.error.actor.fetchDepartments':
      out.push(notice('error', DEPARTMENTS_FETCH_FAILED));
      expect(s.context.departments).toEqual([]);
      break;
    case 'filter.departments':
      expect(s.context.filters.departmentIds).toEqual(event.ids);
      expect(s.context.filters.unitIds).toEqual([]);
      break;
    case 'filter.units':
      if (p!.context.filters.departmentIds.length === 0) expect(s.context.filters.unitIds).toEqual([]);
      else expect(s.context.filters.unitIds).toEqual(['u1', 'u3'].filter((id) => allowedUnits.includes(id)));
      break;
    case 'filter.year':
      expect(s.context.filters.year).toBe(event.year === YEAR - 4 ? YEAR - 4 : p!.context.filters.year);
      break;
    case 'filter.months':
      expect(s.context.filters.months).toEqual((event.months as number[]).length ? [1, 3] : []);
      break;
    case 'filter.toggleAllMonths':
      expect(s.context.filters.months).toEqual(p!.context.filters.months.length === 12 ? [] : ALL_MONTHS);
      break;
    case 'filter.reset':
      expect(s.context.filters).toEqual(defaultFilters(YEAR));
      expect(s.context.reportType).toBe('department');
      expect(s.matches('idle')).toBe(true);
      break;
    case 'filter.reportType':
      expect(s.context.reportType).toBe(event.reportType);
      // Another type clears the results and their page; the same one changes nothing.
      if (p!.context.reportType !== event.reportType) expect(s.matches('idle')).toBe(true);
      else expect(s.value).toEqual(p!.value);
      break;
    case 'filter.apply':
      if (p!.context.filters.months.length > 0) {
        expect(s.context.applied).toEqual({ reportType: s.context.reportType, ...p!.context.filters });
        // Already showing: the same pager reloads page 1 with the new filters (sort and page size kept).
        if (p!.matches('showing')) list.push({ type: 'pager.filter', filters: s.context.applied! } as EventObject);
      } else expect(s.value).toEqual(p!.value);
      break;
    case 'report.sort':
      if (showing) {
        list.push({ type: 'pager.sort', column: 'unit_name' } as EventObject);
        // A new column starts ascending, the same one toggles.
        expect(s.context.sort).toEqual({ column: 'unit_name', direction: p!.context.sort.column === 'unit_name' && p!.context.sort.direction === 'asc' ? 'desc' : 'asc' });
      }
      break;
    case 'report.pageSize':
      list.push({ type: 'pager.pageSize', pageSize: 20 } as EventObject);
      break;
    case 'report.goTo':
      list.push({ type: 'pager.goTo', page: 2 } as EventObject);
      break;
    case 'notice.show':
      out.push(notice('error', REPORT_FETCH_FAILED('department')));
      break;
    case 'xstate.done.actor.exportReport':
      out.push(notice('success', REPORT_EXPORTED[s.context.applied!.reportType]));
      break;
    case 'xstate.error.actor.exportReport':
      out.push(notice('error', REPORT_EXPORT_FAILED(s.context.applied!.reportType)));
      break;
  }
  expect(fresh.list).toEqual(list);
  expect(fresh.emitted).toEqual(out);
  prev = s;
}

runModelTest({
  name: 'usage-reports',
  machine: usageReportsMachine,
  testMachine,
  onActor: (actor) => {
    listInputs = [];
    toList = [];
    exports = [];
    departmentCalls = 0;
    emitted = [];
    seen = { list: 0, emitted: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [{ currentYear: YEAR }],
  events: eventsFor,
  // What the guards read: the type shown, whether departments and months are chosen, whether the departments came.
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.reportType,
      s.context.filters.departmentIds.length > 0,
      s.context.filters.months.length > 0,
      s.context.departmentsLoaded,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.filters.months.length > 0]),
  edgeKeys: true,
  checks: { idle: check, showing: check },
});

describe('usage reports (examples)', () => {
  it('exports what is on screen: the applied filters and the sort the person chose', async () => {
    const asked: ReportExportRequest[] = [];
    const pages: PageRequest[] = [];
    const actor = createActor(
      usageReportsMachine.provide({
        actors: {
          fetchDepartments: fromPromise(async () => departments),
          list: pagerMachine.provide({
            actors: {
              fetchPage: fromPromise<PageResult, PageRequest>(async ({ input }) => {
                pages.push(input);
                return { items: [{ id: 'r1' }], page: input.page, total: 1, totalPages: 1 };
              }),
            },
          }),
          exportReport: fromPromise<unknown, ReportExportRequest>(async ({ input }) => {
            asked.push(input);
          }),
        },
      }),
      { input: { currentYear: YEAR } },
    ).start();
    const told: Notice[] = [];
    actor.on('notice.show', (n) => told.push(n));
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'filter.reportType', reportType: 'user' });
    actor.send({ type: 'filter.departments', ids: ['d2'] });
    actor.send({ type: 'filter.units', ids: ['u3'] });
    actor.send({ type: 'filter.months', months: [2] });
    actor.send({ type: 'filter.apply' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'report.sort', column: 'user_name' });
    actor.send({ type: 'report.sort', column: 'user_name' });
    actor.send({ type: 'report.pageSize', pageSize: 50 });
    await new Promise((r) => setTimeout(r, 0));
    const filters = { reportType: 'user', departmentIds: ['d2'], unitIds: ['u3'], year: YEAR, months: [2] };
    expect(pages.at(-1)).toEqual({ page: 1, pageSize: 50, query: '', filters, sort: { column: 'user_name', direction: 'desc' } });
    actor.send({ type: 'report.export' });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([{ ...filters, sort: { column: 'user_name', direction: 'desc' } }]);
    expect(told).toEqual([notice('success', 'User report exported successfully')]);
    actor.stop();
  });

  it('offers the current year and the 4 before, and keeps the spec texts', () => {
    expect(yearChoices(YEAR)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect([REPORT_FETCH_FAILED('user'), REPORT_EXPORT_FAILED('department'), REPORT_EXPORTED.department]).toEqual([
      'Failed to fetch user report',
      'Failed to export department report',
      'Department report exported successfully',
    ]);
  });
});
