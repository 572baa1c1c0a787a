import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { REPORT_TYPE_LABELS, REPORT_TYPES, type ReportType } from '../../../contract/usage-reports-constants';
import { ALL_MONTHS, allMonthsChosen, unitChoices, yearChoices, type UsageReportsMachine } from '../../../machines/usage-reports.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { MultiSelect } from '../../ui/multi-select';
import { Select } from '../../ui/select';

const monthName = new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' });
const MONTH_ITEMS = ALL_MONTHS.map((m) => ({ id: String(m), label: monthName.format(new Date(Date.UTC(2000, m - 1, 1))) }));
const TYPE_ITEMS = REPORT_TYPES.map((t) => ({ id: t, label: REPORT_TYPE_LABELS[t] }));

/** The report filter form: a thin view of the usage-reports machine (what is enabled comes from `can()`). */
export function ReportFilters({ actor }: { actor: ActorRefFrom<UsageReportsMachine> }) {
  const state = useSelector(
    actor,
    (s) => ({
      reportType: s.context.reportType,
      filters: s.context.filters,
      departments: s.context.departments,
      departmentsLoaded: s.context.departmentsLoaded,
      currentYear: s.context.currentYear,
      canApply: s.can({ type: 'filter.apply' }),
      canPickUnits: s.can({ type: 'filter.units', ids: [] }),
    }),
    shallowEqual,
  );
  const { filters } = state;
  const units = unitChoices(state.departments, filters.departmentIds);
  const manyDepartments = filters.departmentIds.length > 1;
  const allMonths = allMonthsChosen(filters.months);

  return (
    <form
      aria-label="Report filters"
      className="grid gap-4 rounded-2xl border border-gray-200 bg-white p-5 sm:grid-cols-2 lg:grid-cols-3 dark:border-gray-700 dark:bg-gray-900"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'filter.apply' });
      }}
    >
      <Select
        label="Report Type"
        items={TYPE_ITEMS}
        selectedKey={state.reportType}
        onSelectionChange={(key) => key && actor.send({ type: 'filter.reportType', reportType: key as ReportType })}
      />
      <MultiSelect
        label="Departments"
        placeholder={state.departmentsLoaded ? 'All departments' : 'Loading departments...'}
        items={state.departments.map((d) => ({ id: d.id, label: d.name }))}
        selectedKeys={filters.departmentIds}
        onSelectionChange={(ids) => actor.send({ type: 'filter.departments', ids })}
      />
      <MultiSelect
        label="Units"
        placeholder={state.canPickUnits ? 'All units' : 'Choose a department first'}
        isDisabled={!state.canPickUnits}
        items={units.map((u) => ({ id: u.id, label: manyDepartments ? `${u.name} (${u.departmentName})` : u.name }))}
        selectedKeys={filters.unitIds}
        onSelectionChange={(ids) => actor.send({ type: 'filter.units', ids })}
      />
      <Select
        label="Year"
        items={yearChoices(state.currentYear).map((y) => ({ id: String(y), label: String(y) }))}
        selectedKey={String(filters.year)}
        onSelectionChange={(key) => key && actor.send({ type: 'filter.year', year: Number(key) })}
      />
      {/* The toggle sits beside the label but outside the select: a button inside it would open the list. */}
      <div className="relative">
        <MultiSelect
          label="Months"
          placeholder="No months chosen"
          allLabel="All months"
          items={MONTH_ITEMS}
          selectedKeys={filters.months.map(String)}
          onSelectionChange={(ids) => actor.send({ type: 'filter.months', months: ids.map(Number) })}
        />
        <span className="absolute -top-1 right-0">
          <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onPress={() => actor.send({ type: 'filter.toggleAllMonths' })}>
            {allMonths ? 'Deselect All' : 'Select All'}
          </Button>
        </span>
      </div>
      <div className="flex items-end gap-2">
        <Button variant="secondary" onPress={() => actor.send({ type: 'filter.reset' })}>
          Reset
        </Button>
        <Button variant="primary" type="submit" isDisabled={!state.canApply}>
          Apply Filters
        </Button>
      </div>
    </form>
  );
}
