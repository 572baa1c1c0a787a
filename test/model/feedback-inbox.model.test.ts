import { expect } from './support/expect';
import { fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { INBOX_FETCH_FAILED } from '../../contract/feedback-constants';
import { feedbackInboxMachine, filtersOf, inboxListInput } from '../../machines/feedback-inbox.machine';
import { notice, type Notice } from '../../machines/notice';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof feedbackInboxMachine>;
type Ev = EventFrom<typeof feedbackInboxMachine>;

let listInputs: unknown[] = [];
let toList: EventObject[] = [];
let emitted: Notice[] = [];
let seen = { list: 0, emitted: 0 };

const events: Ev[] = [
  { type: 'inbox.filter', kind: 'rating' },
  { type: 'inbox.filter', kind: 'report' },
  { type: 'inbox.filter', kind: 'all' },
  { type: 'inbox.goTo', page: 2 },
  { type: 'inbox.retry' },
  notice('error', INBOX_FETCH_FAILED),
];

/** What the list must have been told for each of the view's events. */
function toldFor(e: { type: string } | null): Array<EventObject & Record<string, unknown>> {
  if (!e) return [];
  const ev = e as Ev;
  if (ev.type === 'inbox.filter') return [{ type: 'pager.filter', filters: filtersOf(ev.kind) }];
  if (ev.type === 'inbox.goTo') return [{ type: 'pager.goTo', page: ev.page }];
  if (ev.type === 'inbox.retry') return [{ type: 'pager.load' }];
  return [];
}

runModelTest({
  name: 'feedback-inbox',
  machine: feedbackInboxMachine,
  testMachine: () =>
    feedbackInboxMachine.provide({
      actors: {
        list: fromCallback<EventObject, unknown>(({ input, receive }) => {
          listInputs.push(input);
          receive((e) => toList.push(e));
        }) as never,
      },
    }),
  onActor: (actor) => {
    listInputs = [];
    toList = [];
    emitted = [];
    seen = { list: 0, emitted: 0 };
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [undefined],
  events: () => events,
  key: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    browsing: (s: Snap, e) => {
      // One list, started with the inbox's page size and texts, told exactly what the view asked for.
      expect(listInputs).toEqual([{ ...inboxListInput, parent: expect.anything() }]);
      expect(toList.slice(seen.list)).toEqual(toldFor(e));
      seen.list = toList.length;
      // The list's toasts are passed on as they are.
      expect(emitted.slice(seen.emitted)).toEqual(e?.type === 'notice.show' ? [e] : []);
      seen.emitted = emitted.length;
      expect(Boolean(s.children.list)).toBe(true);
    },
  },
});
