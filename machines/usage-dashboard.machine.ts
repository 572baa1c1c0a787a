import { assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { Dashboard } from '../contract/usage-reports';
import { DASHBOARD_FETCH_FAILED, DASHBOARD_GENERATE_FAILED, DASHBOARD_REFRESH_MS } from '../contract/usage-reports-constants';
import { notProvided } from './not-provided';

/**
 * The admin's Usage Summary tab (administration spec sections 2, 8, 9): the organisation's dashboard.
 *
 * `loading` (tag `busy`): on open, the stored latest dashboard (`fetchLatest`, GET). `ready`: shown; after
 * DASHBOARD_REFRESH_MS of being shown, or on `dashboard.refresh`, -> `refreshing` (tags `busy`, `refreshing`): a new
 * one is computed (`generate`, POST) while the one shown stays on screen, then shown. `failed` (tag `error`): the
 * spec's sentence ('Failed to fetch dashboard data' for the first read, 'Failed to generate dashboard data' for a
 * refresh, or the server's own) with Retry (`dashboard.refresh` -> `refreshing`); the last dashboard, if any, stays.
 * The auto-refresh keeps going in `failed` too: the page left open on a wall screen recovers by itself.
 * The timer is a delayed transition (`DASHBOARD_REFRESH`), so it stops with the state (no setInterval to clear).
 */

export interface UsageDashboardContext {
  dashboard: Dashboard | null;
  error: string | null;
}

export type UsageDashboardEvent =
  | { type: 'dashboard.refresh' }
  | DoneActorEvent<Dashboard, 'fetchLatest'>
  | ErrorActorEvent<unknown, 'fetchLatest'>
  | DoneActorEvent<Dashboard, 'generate'>
  | ErrorActorEvent<unknown, 'generate'>;

export const usageDashboardMachine = setup({
  types: {
    context: {} as UsageDashboardContext,
    events: {} as UsageDashboardEvent,
    tags: {} as 'busy' | 'refreshing' | 'error',
    children: {} as { fetchLatest: 'fetchLatest'; generate: 'generate' },
  },
  actors: {
    fetchLatest: notProvided<Dashboard, void>('fetchLatest'),
    generate: notProvided<Dashboard, void>('generate'),
  },
  delays: {
    DASHBOARD_REFRESH: DASHBOARD_REFRESH_MS,
  },
  actions: {
    show: assign((_, params: { dashboard: Dashboard }) => ({ dashboard: params.dashboard, error: null })),
    // The spec's sentence whatever the cause: the server's own words here would be a bare status ('Internal Server Error').
    fail: assign((_, params: { text: string }) => ({ error: params.text })),
  },
}).createMachine({
  id: 'usageDashboard',
  context: { dashboard: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'The latest stored dashboard is being loaded.',
      tags: ['busy'],
      invoke: {
        id: 'fetchLatest',
        src: 'fetchLatest',
        onDone: { target: 'ready', actions: { type: 'show', params: ({ event }) => ({ dashboard: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: { text: DASHBOARD_FETCH_FAILED } },
        },
      },
    },
    ready: {
      description: 'The dashboard is shown, and refreshes itself after a while.',
      after: { DASHBOARD_REFRESH: 'refreshing' },
      on: { 'dashboard.refresh': 'refreshing' },
    },
    refreshing: {
      description: 'A new dashboard is being computed while the one shown stays on screen.',
      tags: ['busy', 'refreshing'],
      invoke: {
        id: 'generate',
        src: 'generate',
        onDone: { target: 'ready', actions: { type: 'show', params: ({ event }) => ({ dashboard: event.output }) } },
        onError: {
          target: 'failed',
          actions: { type: 'fail', params: { text: DASHBOARD_GENERATE_FAILED } },
        },
      },
    },
    failed: {
      description: 'The dashboard could not be read or computed: the sentence shows with Retry; the last dashboard stays.',
      tags: ['error'],
      after: { DASHBOARD_REFRESH: 'refreshing' },
      on: { 'dashboard.refresh': 'refreshing' },
    },
  },
});

export type UsageDashboardMachine = typeof usageDashboardMachine;
