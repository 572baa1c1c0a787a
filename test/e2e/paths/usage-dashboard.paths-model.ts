import type { SnapshotFrom } from 'xstate';
import type { Dashboard } from '../../../contract/usage-reports';
import { loadFailure } from '../../../machines/load-failure';
import { usageDashboardMachine } from '../../../machines/usage-dashboard.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof usageDashboardMachine>;

/** The auto-refresh timers: the person leaves the tab open for five minutes (Playwright's clock moves them on). */
export const AFTER_READY = 'xstate.after.DASHBOARD_REFRESH.usageDashboard.ready';
export const AFTER_FAILED = 'xstate.after.DASHBOARD_REFRESH.usageDashboard.failed';

/** The model's dashboard: its content is the server's (the steps read it from the screen). */
const DASHBOARD: Dashboard = { user_month: [], top3_dept: [], top5_user: [], generated_at: '2026-01-01T00:00:00.000Z' };
const FAULT = loadFailure('HTTP 500', null);

/**
 * The admin on /home's Usage Summary tab: the stored dashboard is read (or, with a stub, the read fails); the
 * person presses Refresh (or Retry after a failure) or leaves the tab open five minutes; the new dashboard is
 * computed (or, with a stub, the computing fails). Every event is something a person does or a browser forces,
 * so the same paths run locally and against a deployment. Not generated: `dashboard.refresh` while loading or
 * refreshing (the screen offers no button then: the Refresh button is pending, Retry hidden; the model test
 * covers that the machine ignores it).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.fetchLatest', output: DASHBOARD, actorId: 'fetchLatest' },
        { type: 'xstate.error.actor.fetchLatest', error: FAULT, actorId: 'fetchLatest' },
      ];
    case 'refreshing':
      return [
        { type: 'xstate.done.actor.generate', output: DASHBOARD, actorId: 'generate' },
        { type: 'xstate.error.actor.generate', error: FAULT, actorId: 'generate' },
      ];
    case 'ready':
      return [{ type: 'dashboard.refresh' }, { type: AFTER_READY }];
    case 'failed':
      return [{ type: 'dashboard.refresh' }, { type: AFTER_FAILED }];
    default:
      return [];
  }
}

const generated = maximalPaths({
  machine: usageDashboardMachine,
  inputs: [undefined as never],
  events: eventsFor as never,
  // Whether a dashboard is on screen: a failure with one keeps it, a failure without one shows 'No dashboard data'.
  key: (s) => JSON.stringify([s.value, s.context.dashboard !== null]),
  edgeKeys: true,
});

export { usageDashboardMachine };
/** The fewest of the longest paths that reach every state and transition the model reaches. */
export const usageDashboardPaths = asSteps<undefined>(coveringPaths(usageDashboardMachine, generated));
