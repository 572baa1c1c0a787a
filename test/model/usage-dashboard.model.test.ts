import { afterEach, describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import type { Dashboard } from '../../contract/usage-reports';
import { DASHBOARD_FETCH_FAILED, DASHBOARD_GENERATE_FAILED, DASHBOARD_REFRESH_MS } from '../../contract/usage-reports-constants';
import { loadFailure } from '../../machines/load-failure';
import { usageDashboardMachine } from '../../machines/usage-dashboard.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof usageDashboardMachine>;
type Ev = EventFrom<typeof usageDashboardMachine>;

const AFTER_READY = 'xstate.after.DASHBOARD_REFRESH.usageDashboard.ready';
const AFTER_FAILED = 'xstate.after.DASHBOARD_REFRESH.usageDashboard.failed';

const dashboardAt = (generated_at: string, count: number): Dashboard => ({
  user_month: Array.from({ length: 12 }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}`, count: i === 11 ? count : 0 })),
  top3_dept: [{ Finance: count }],
  top5_user: [{ name: 'Aisyah', department_name: 'Finance', unit_name: null, query_count: count }],
  generated_at,
});
const stored = dashboardAt('2026-12-01T08:00:00.000Z', 3);
const fresh = dashboardAt('2026-12-01T08:05:00.000Z', 4);
const refused = loadFailure('HTTP 403', 'Forbidden');
const dropped = loadFailure('Network Error', null);

let latestCalls = 0;
let generateCalls = 0;
let prev: Snap | null = null;

const testMachine = () =>
  usageDashboardMachine.provide({
    actors: {
      fetchLatest: pendingActor<Dashboard, void>(() => latestCalls++),
      generate: pendingActor<Dashboard, void>(() => generateCalls++),
    },
  });

function eventsFor(s: Snap): Ev[] {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.fetchLatest', output: stored, actorId: 'fetchLatest' },
      { type: 'xstate.error.actor.fetchLatest', error: dropped, actorId: 'fetchLatest' },
      { type: 'xstate.error.actor.fetchLatest', error: refused, actorId: 'fetchLatest' },
      { type: 'dashboard.refresh' },
    ] as Ev[];
  }
  if (s.matches('refreshing')) {
    return [
      { type: 'xstate.done.actor.generate', output: fresh, actorId: 'generate' },
      { type: 'xstate.error.actor.generate', error: dropped, actorId: 'generate' },
      { type: 'xstate.error.actor.generate', error: refused, actorId: 'generate' },
      { type: 'dashboard.refresh' },
    ] as Ev[];
  }
  return [{ type: 'dashboard.refresh' }, { type: s.matches('ready') ? AFTER_READY : AFTER_FAILED } as never];
}

function check(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: unknown } & Record<string, unknown>) | null;
  expect(s.hasTag('busy')).toBe(s.matches('loading') || s.matches('refreshing'));
  expect(s.hasTag('refreshing')).toBe(s.matches('refreshing'));
  expect(s.hasTag('error')).toBe(s.matches('failed'));
  // The stored one is read once, on open; every later dashboard is computed anew.
  expect(latestCalls).toBe(1);
  expect(Boolean(s.children.fetchLatest)).toBe(s.matches('loading'));
  expect(Boolean(s.children.generate)).toBe(s.matches('refreshing'));
  expect(s.can({ type: 'dashboard.refresh' })).toBe(s.matches('ready') || s.matches('failed'));
  expect(s.context.error !== null).toBe(s.matches('failed') || (s.matches('refreshing') && p?.context.error != null));
  if (s.matches('refreshing') && !p?.matches('refreshing')) {
    expect(generateCalls).toBeGreaterThan(0);
    // A refresh keeps what was shown on screen while the new one is computed.
    expect(s.context.dashboard).toBe(p!.context.dashboard);
  }
  if (s.matches('ready')) expect(s.context.error).toBeNull();

  switch (event?.type) {
    case 'xstate.done.actor.fetchLatest':
      expect(s.context.dashboard).toBe(stored);
      break;
    case 'xstate.done.actor.generate':
      expect(s.context.dashboard).toBe(fresh);
      break;
    case 'xstate.error.actor.fetchLatest':
      expect(s.context.error).toBe(DASHBOARD_FETCH_FAILED);
      expect(s.context.dashboard).toBeNull();
      break;
    case 'xstate.error.actor.generate':
      expect(s.context.error).toBe(DASHBOARD_GENERATE_FAILED);
      // A failed refresh leaves the last dashboard there.
      expect(s.context.dashboard).toBe(p!.context.dashboard);
      break;
    case AFTER_READY:
    case AFTER_FAILED:
      expect(s.matches('refreshing')).toBe(true);
      break;
  }
  prev = s;
}

runModelTest({
  name: 'usage-dashboard',
  machine: usageDashboardMachine,
  testMachine,
  onActor: () => {
    latestCalls = 0;
    generateCalls = 0;
    prev = null;
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.dashboard?.generated_at ?? null, s.context.error]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.dashboard !== null]),
  edgeKeys: true,
  checks: { loading: check, ready: check, refreshing: check, failed: check },
});

describe('usage dashboard with timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('computes a new dashboard every DASHBOARD_REFRESH_MS while shown, and stops when closed', async () => {
    vi.useFakeTimers();
    let generated = 0;
    const actor = createActor(
      usageDashboardMachine.provide({
        actors: {
          fetchLatest: fromPromise(async () => stored),
          generate: fromPromise(async () => {
            generated++;
            return fresh;
          }),
        },
      }),
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.dashboard).toBe(stored);
    await vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS - 1);
    expect(generated).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(generated).toBe(1);
    expect(actor.getSnapshot().context.dashboard).toBe(fresh);
    await vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS);
    expect(generated).toBe(2);
    actor.stop();
    await vi.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS * 3);
    expect(generated).toBe(2);
  });

  it('keeps the spec numbers and texts', () => {
    expect([DASHBOARD_REFRESH_MS, DASHBOARD_FETCH_FAILED, DASHBOARD_GENERATE_FAILED]).toEqual([
      300000,
      'Failed to fetch dashboard data',
      'Failed to generate dashboard data',
    ]);
  });
});
