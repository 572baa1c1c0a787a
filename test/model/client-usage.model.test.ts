import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { ClientUsage, DepartmentUsage } from '../../contract/clients';
import { CLIENT_USAGE_FETCH_FAILED } from '../../contract/clients-constants';
import {
  clientUsageMachine,
  previousMonth,
  usageTitle,
  usageTotals,
  usd,
  type ClientUsageInput,
} from '../../machines/client-usage.machine';
import { loadFailure } from '../../machines/load-failure';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof clientUsageMachine>;
type Ev = EventFrom<typeof clientUsageMachine>;

const dept = (name: string, requests: number, prompt: number, completion: number, cost: number): DepartmentUsage => ({
  department_id: name === 'No department' ? null : `d-${name}`,
  department_name: name,
  total_requests: requests,
  token_usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  token_costs: { prompt_cost: cost / 2, completion_cost: cost / 2, total_cost: cost },
});
const usage: ClientUsage = {
  client_id: 'c1',
  year: 2026,
  month: '10',
  departments: [dept('Finance', 12, 1000, 500, 1.25), dept('No department', 3, 200, 100, 0.125)],
};
const refused = loadFailure('HTTP 404', 'Client not found');
const dropped = loadFailure('Network Error', null);

let asked: ClientUsageInput[] = [];
let prev: Snap | null = null;

const inputs: ClientUsageInput[] = [{ clientId: 'c1', period: { year: 2026, month: 10 } }];

function eventsFor(s: Snap): Ev[] {
  const retry = { type: 'usage.retry' } as Ev;
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.fetchUsage', output: usage, actorId: 'fetchUsage' },
      { type: 'xstate.error.actor.fetchUsage', error: refused, actorId: 'fetchUsage' },
      { type: 'xstate.error.actor.fetchUsage', error: dropped, actorId: 'fetchUsage' },
      retry,
    ] as Ev[];
  }
  return [retry];
}

const check = (fn: (s: Snap, e: (Ev & { error?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  expect(s.hasTag('busy')).toBe(s.matches('loading'));
  expect(s.hasTag('error')).toBe(s.matches('failed'));
  expect(Boolean(s.children.fetchUsage)).toBe(s.matches('loading'));
  fn(s, e as (Ev & { error?: unknown }) | null, p);
  prev = s;
};

runModelTest({
  name: 'client-usage',
  machine: clientUsageMachine,
  testMachine: () => clientUsageMachine.provide({ actors: { fetchUsage: pendingActor<ClientUsage, ClientUsageInput>((i) => asked.push(i)) } }),
  onActor: () => {
    asked = [];
    prev = null;
  },
  inputs,
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.error]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    loading: check((s, e, p) => {
      // Each read asks for the input's month (the view gives the previous calendar month); Try again reads again,
      // and a Try again while reading starts nothing more.
      expect(asked.at(-1)).toEqual({ clientId: 'c1', period: { year: 2026, month: 10 } });
      if (e?.type === 'usage.retry') expect(s.context.error).toBe(p!.context.error);
    }),
    ready: check((s) => {
      expect(s.context.departments).toEqual(usage.departments);
      expect(s.context.error).toBeNull();
    }),
    failed: check((s, e) => {
      // The server's sentence when it gave one, else the spec's.
      expect(s.context.error).toBe(e?.error === refused ? 'Client not found' : CLIENT_USAGE_FETCH_FAILED);
    }),
  },
});

describe('client usage (examples)', () => {
  it('names the previous calendar month, January reading December of the year before', () => {
    expect(previousMonth(new Date(2026, 10, 28, 12))).toEqual({ year: 2026, month: 10 });
    expect(previousMonth(new Date(2027, 0, 1, 0, 0))).toEqual({ year: 2026, month: 12 });
    expect(usageTitle({ year: 2026, month: 10 })).toBe('Client Usage Analytics - October 2026');
  });

  it('sums requests, total tokens and cost over the departments; money in USD with 2 decimals', () => {
    expect(usageTotals(usage.departments)).toEqual({ requests: 15, tokens: 1800, cost: 1.375 });
    expect(usd(1.375)).toBe('$1.38');
    expect(usd(0)).toBe('$0.00');
    expect(usageTotals([])).toEqual({ requests: 0, tokens: 0, cost: 0 });
  });
});
