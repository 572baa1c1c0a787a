import { expect } from 'vitest';
import { fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { SHARING_STOPPED, STOP_SHARING_FAILED } from '../../machines/share.machine';
import { sharedLinksListInput, sharedLinksMachine } from '../../machines/shared-links.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof sharedLinksMachine>;
type Ev = EventFrom<typeof sharedLinksMachine>;

// As src/lib/answer-status.ts rejects: the server's sentence and the HTTP status (0: no answer).
const gone = Object.assign(loadFailure('HTTP 404', 'Shared conversation not found'), { status: 404 });
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });
const fault = Object.assign(loadFailure('HTTP 500', 'Internal Server Error'), { status: 500 });

let listInputs: unknown[] = [];
let toList: EventObject[] = [];
let revokes: { shareId: string }[] = [];
let emitted: Notice[] = [];
let seen = { list: 0, emitted: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  sharedLinksMachine.provide({
    actors: {
      list: fromCallback<EventObject, unknown>(({ input, receive }) => {
        listInputs.push(input);
        receive((e) => toList.push(e));
      }) as never,
      revoke: pendingActor<unknown, { shareId: string }>((i) => revokes.push(i)),
    },
  });

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [{ type: 'links.goTo', page: 2 }, notice('error', 'Failed to fetch shared links')];
  if (s.matches('browsing')) return [...always, { type: 'link.revoke', shareId: 's1', title: 'Trip planning' }, { type: 'revoke.confirm' }];
  if (s.matches('confirming')) return [...always, { type: 'revoke.confirm' }, { type: 'revoke.cancel' }, { type: 'link.revoke', shareId: 's2', title: 'Other' }];
  return [
    { type: 'xstate.done.actor.revoke', output: {}, actorId: 'revoke' },
    { type: 'xstate.error.actor.revoke', error: gone, actorId: 'revoke' },
    { type: 'xstate.error.actor.revoke', error: fault, actorId: 'revoke' },
    { type: 'xstate.error.actor.revoke', error: dropped, actorId: 'revoke' },
    { type: 'revoke.cancel' },
  ] as never[];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number } } & Record<string, unknown>) | null;
  const fresh = { list: toList.slice(seen.list), emitted: emitted.slice(seen.emitted) };
  seen = { list: toList.length, emitted: emitted.length };

  expect(listInputs).toEqual([sharedLinksListInput]);
  expect(s.hasTag('busy')).toBe(s.matches('revoking'));
  expect(s.context.revocation !== null).toBe(s.matches('confirming') || s.matches('revoking'));
  // A confirmation names the link it was opened for: a second press elsewhere does not change it.
  if (s.matches('confirming') && p?.matches('confirming')) expect(s.context.revocation).toEqual(p.context.revocation);
  // A failed stop keeps the question open about the same link.
  if (event?.type === 'xstate.error.actor.revoke' && event.error?.status !== 404) {
    expect(s.matches('confirming')).toBe(true);
    expect(s.context.revocation).toEqual(p!.context.revocation);
  }
  if (s.matches('confirming') && event?.type === 'link.revoke') expect(s.context.revocation).toEqual({ shareId: 's1', title: 'Trip planning' });
  // Nothing is revoked before the confirmation.
  if (s.matches('revoking') && !p?.matches('revoking')) expect(revokes.at(-1)).toEqual({ shareId: 's1' });
  if (s.matches('confirming') && event?.type === 'link.revoke') expect(revokes).toEqual([]);

  const list: EventObject[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'links.goTo':
      list.push({ type: 'pager.goTo', page: 2 } as EventObject);
      break;
    case 'notice.show':
      out.push(notice('error', 'Failed to fetch shared links'));
      break;
    case 'xstate.done.actor.revoke':
      out.push(notice('success', SHARING_STOPPED));
      list.push({ type: 'pager.refetch' });
      break;
    case 'xstate.error.actor.revoke':
      // Already gone (stopped from another tab): the same outcome. Otherwise the link stays listed, and says why.
      if (event.error?.status === 404) {
        out.push(notice('success', SHARING_STOPPED));
        list.push({ type: 'pager.refetch' });
      } else {
        out.push(notice('error', STOP_SHARING_FAILED));
      }
      break;
  }
  expect(fresh.list).toEqual(list);
  expect(fresh.emitted).toEqual(out);
  prev = s;
}

runModelTest({
  name: 'shared-links',
  machine: sharedLinksMachine,
  testMachine,
  onActor: (actor) => {
    listInputs = [];
    toList = [];
    revokes = [];
    emitted = [];
    seen = { list: 0, emitted: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.revocation?.shareId ?? null]),
  edgeKeys: true,
  checks: { browsing: checkStep, confirming: checkStep, revoking: checkStep },
});
