import { assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { ClientUsage, DepartmentUsage } from '../contract/clients';
import { CLIENT_USAGE_FETCH_FAILED } from '../contract/clients-constants';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';

/**
 * Client Usage Analytics (administration spec sections 2, 3, 7, 9): one client's usage per department over the
 * previous calendar month.
 *
 * `loading` (tag `busy`): the month's usage is read (`fetchUsage`, GET /usage-logs/clients/{id}/departments with
 * the input's year and two-digit month). `ready`: the three totals and the department table. `failed` (tag
 * `error`): the server's sentence, else 'Failed to fetch client usage', with Try again (`usage.retry` -> `loading`).
 */

/** A calendar month: `month` 1 to 12. */
export interface UsagePeriod {
  year: number;
  month: number;
}

export interface ClientUsageInput {
  clientId: string;
  period: UsagePeriod;
}

export interface ClientUsageContext extends ClientUsageInput {
  departments: DepartmentUsage[];
  error: string | null;
}

export type ClientUsageEvent =
  | { type: 'usage.retry' }
  | DoneActorEvent<ClientUsage, 'fetchUsage'>
  | ErrorActorEvent<unknown, 'fetchUsage'>;

/** The calendar month before `now`'s (local calendar, as the title reads it). */
export function previousMonth(now: Date): UsagePeriod {
  const month = now.getMonth(); // 0-based: this month's index is the previous month's 1-based number
  return month === 0 ? { year: now.getFullYear() - 1, month: 12 } : { year: now.getFullYear(), month };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'Client Usage Analytics - October 2026'. */
export function usageTitle(period: UsagePeriod): string {
  return `Client Usage Analytics - ${MONTHS[period.month - 1]} ${period.year}`;
}

/** The three cards: sums over the departments of requests, total tokens and total cost (USD). */
export function usageTotals(departments: readonly DepartmentUsage[]) {
  return departments.reduce(
    (sum, d) => ({
      requests: sum.requests + d.total_requests,
      tokens: sum.tokens + d.token_usage.total_tokens,
      cost: sum.cost + d.token_costs.total_cost,
    }),
    { requests: 0, tokens: 0, cost: 0 },
  );
}

/** Money as the spec shows it: USD with 2 decimals. */
export const usd = (amount: number) => `$${amount.toFixed(2)}`;

export const clientUsageMachine = setup({
  types: {
    context: {} as ClientUsageContext,
    events: {} as ClientUsageEvent,
    input: {} as ClientUsageInput,
    tags: {} as 'busy' | 'error',
    children: {} as { fetchUsage: 'fetchUsage' },
  },
  actors: {
    fetchUsage: notProvided<ClientUsage, ClientUsageInput>('fetchUsage'),
  },
}).createMachine({
  id: 'clientUsage',
  context: ({ input }) => ({ ...input, departments: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: "The month's usage per department is being read.",
      tags: ['busy'],
      invoke: {
        id: 'fetchUsage',
        src: 'fetchUsage',
        input: ({ context }) => ({ clientId: context.clientId, period: context.period }),
        onDone: { target: 'ready', actions: assign({ departments: ({ event }) => event.output.departments, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => serverDetailOf(event.error) ?? CLIENT_USAGE_FETCH_FAILED }) },
      },
    },
    ready: { description: 'The totals and the department table are shown.' },
    failed: {
      description: 'The usage could not be read: the sentence shows with Try again.',
      tags: ['error'],
      on: { 'usage.retry': 'loading' },
    },
  },
});

export type ClientUsageMachine = typeof clientUsageMachine;
