import { lazy, Suspense, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { RefreshCw } from 'lucide-react';
import type { Dashboard } from '../../../contract/usage-reports';
import {
  DASHBOARD_TOP_DEPARTMENTS,
  DASHBOARD_TOP_USERS,
  NO_DASHBOARD_DATA,
  NO_DEPARTMENT_DATA,
  NO_MONTHLY_USER_DATA,
  NOT_AVAILABLE,
} from '../../../contract/usage-reports-constants';
import { usageDashboardMachine } from '../../../machines/usage-dashboard.machine';
import { fetchLatestDashboard, generateDashboard } from '../../api/usage-reports';
import { formatDateTime } from '../../lib/format-date';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { ErrorBanner } from '../../ui/error-banner';
import { Spinner } from '../../ui/spinner';
import { FairUseCard } from './fair-use-card';
import { longMonth } from './month-label';
import { MonthlyActivityTable } from './monthly-activity-table';
import { defineUsageSummaryActors } from './usage-actors';

// The chart library is big: fetched only when this tab draws a chart (never on the login route).
const machine = usageDashboardMachine.provide({ actors: defineUsageSummaryActors({ api: { fetchLatestDashboard, generateDashboard } }) });
const MonthlyActivityChart = lazy(() => import('./monthly-activity-chart'));

const sectionTitle = 'text-base font-semibold text-gray-900 dark:text-gray-50';
const muted = 'text-sm text-gray-600 dark:text-gray-300';

/** The Usage Summary tab: a thin view of the usage-dashboard machine. */
export function UsageSummary() {
  const actor = useActorRef(machine);
  const state = useSelector(
    actor,
    (s) => ({
      dashboard: s.context.dashboard,
      error: s.hasTag('error') ? s.context.error : null,
      loading: s.matches('loading'),
      refreshing: s.hasTag('refreshing'),
      canRefresh: s.can({ type: 'dashboard.refresh' }),
    }),
    shallowEqual,
  );
  const refresh = () => actor.send({ type: 'dashboard.refresh' });
  const { dashboard } = state;

  return (
    <div className="space-y-6" aria-busy={state.loading || state.refreshing}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className={muted}>
          {dashboard ? (
            <>
              Generated at <time dateTime={dashboard.generated_at}>{formatDateTime(dashboard.generated_at)}</time>
            </>
          ) : null}
        </p>
        {!state.error && dashboard && (
          <Button variant="secondary" size="sm" isPending={state.refreshing} isDisabled={!state.canRefresh} onPress={refresh}>
            <RefreshCw aria-hidden className="size-4" /> Refresh
          </Button>
        )}
      </div>
      {state.error && (
        <div className="space-y-3">
          <ErrorBanner message={state.error} />
          <Button variant="primary" isPending={state.refreshing} isDisabled={!state.canRefresh} onPress={refresh}>
            Retry
          </Button>
        </div>
      )}
      {/* Also while a retry computes the first dashboard: the error and its Retry are gone, nothing else would show. */}
      {(state.loading || (state.refreshing && !dashboard)) && (
        <div className="flex justify-center p-10">
          <Spinner label="Loading dashboard" />
        </div>
      )}
      {!state.loading && !dashboard && !state.refreshing && <p className={muted}>{NO_DASHBOARD_DATA}</p>}
      {dashboard && <DashboardPanels dashboard={dashboard} />}
    </div>
  );
}

function DashboardPanels({ dashboard }: { dashboard: Dashboard }) {
  const current = dashboard.user_month.at(-1)?.month;
  const monthName = current ? longMonth(current) : '';
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {dashboard.fair_use && (
        <Card className="lg:col-span-3">
          <FairUseCard fairUse={dashboard.fair_use} monthName={monthName} />
        </Card>
      )}
      <Card className="lg:col-span-3">
        <ActivityPanel months={dashboard.user_month} />
      </Card>
      <Card>
        <h2 className={sectionTitle}>
          Top {DASHBOARD_TOP_DEPARTMENTS} Departments ({monthName})
        </h2>
        {dashboard.top3_dept.length === 0 ? (
          <p className={`mt-4 ${muted}`}>{NO_DEPARTMENT_DATA}</p>
        ) : (
          <ol className="mt-4 space-y-2">
            {dashboard.top3_dept.flatMap((entry) =>
              Object.entries(entry).map(([name, count], i) => (
                <li key={`${name}-${i}`} className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="min-w-0 truncate font-medium text-gray-900 dark:text-gray-100">{name}</span>
                  <span className="shrink-0 tabular-nums text-gray-700 dark:text-gray-200">
                    {count} {count === 1 ? 'query' : 'queries'}
                  </span>
                </li>
              )),
            )}
          </ol>
        )}
      </Card>
      <Card className="lg:col-span-2">
        <h2 id="top-users-title" className={sectionTitle}>
          Top {DASHBOARD_TOP_USERS} Users ({monthName})
        </h2>
        {dashboard.top5_user.length === 0 ? (
          <p className={`mt-4 ${muted}`}>{NO_DASHBOARD_DATA}</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table aria-labelledby="top-users-title" className="w-full text-left text-sm">
              <thead className="text-gray-700 dark:text-gray-200">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">User</th>
                  <th scope="col" className="py-2 pr-4 font-semibold">Department</th>
                  <th scope="col" className="py-2 pr-4 font-semibold">Unit</th>
                  <th scope="col" className="py-2 text-right font-semibold">Query Count</th>
                </tr>
              </thead>
              <tbody>
                {dashboard.top5_user.map((u, i) => (
                  <tr key={`${u.name}-${i}`} className="border-t border-gray-200 dark:border-gray-700">
                    <th scope="row" className="py-2 pr-4 font-medium">{u.name}</th>
                    <td className="py-2 pr-4">{u.department_name || NOT_AVAILABLE}</td>
                    <td className="py-2 pr-4">{u.unit_name || NOT_AVAILABLE}</td>
                    <td className="py-2 text-right tabular-nums">{u.query_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

/** The chart, or the same numbers as a table (a toggle: a chart cannot be read by keyboard or screen reader). */
function ActivityPanel({ months }: { months: Dashboard['user_month'] }) {
  const [asTable, setAsTable] = useState(false);
  const empty = months.every((m) => m.count === 0);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className={sectionTitle}>Monthly User Activity</h2>
        {!empty && (
          <Button variant="ghost" size="sm" aria-controls="monthly-activity" onPress={() => setAsTable((v) => !v)}>
            {asTable ? 'Show as chart' : 'Show as table'}
          </Button>
        )}
      </div>
      <div id="monthly-activity" className="mt-4">
        {empty ? (
          <p className={muted}>{NO_MONTHLY_USER_DATA}</p>
        ) : asTable ? (
          <MonthlyActivityTable months={months} />
        ) : (
          <Suspense fallback={<div className="flex h-72 items-center justify-center"><Spinner label="Loading chart" /></div>}>
            <MonthlyActivityChart months={months} />
          </Suspense>
        )}
      </div>
    </>
  );
}
