import { expect } from './support/expect';
import { type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { SHARING_STOPPED, STOP_SHARING_FAILED } from '../../machines/share.machine';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import { revokeLink, sharedLinksInput, sharedLinksListInput, type Revocation } from '../../machines/shared-links.machine';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';

/** The Shared Links page's machine: the record editor with the shared links' input. */
const sharedLinksMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof sharedLinksMachine>;
type Ev = EventFrom<typeof sharedLinksMachine>;
const revocation = (s: Snap) => s.context.target as Revocation | null;

// As src/lib/answer-status.ts rejects: the server's sentence and the HTTP status (0: no answer).
const gone = Object.assign(loadFailure('HTTP 404', 'Shared conversation not found'), { status: 404 });
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });
const fault = Object.assign(loadFailure('HTTP 500', 'Internal Server Error'), { status: 500 });

const fakes = recordEditorFakes();
const { rec } = fakes;
const revokes = () => rec.acts as unknown as Revocation[];
let prev: Snap | null = null;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [{ type: 'list.goTo', page: 2 }, notice('error', 'Failed to fetch shared links')];
  if (s.matches('browsing')) return [...always, revokeLink({ shareId: 's1', title: 'Trip planning' }), { type: 'act.confirm' }];
  if (s.matches('confirming')) return [...always, { type: 'act.confirm' }, { type: 'act.cancel' }, revokeLink({ shareId: 's2', title: 'Other' })];
  return [...actOutcomes({}, gone, fault, dropped), { type: 'act.cancel' }];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number } } & Record<string, unknown>) | null;

  expect(rec.listInputs).toEqual([{ ...sharedLinksListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('acting'));
  expect(revocation(s) !== null).toBe(s.matches('confirming') || s.matches('acting'));
  // A confirmation names the link it was opened for: a second press elsewhere does not change it.
  if (s.matches('confirming') && p?.matches('confirming')) expect(revocation(s)).toEqual(revocation(p));
  // A failed stop keeps the question open about the same link.
  if (event?.type === 'xstate.error.actor.act' && event.error?.status !== 404) {
    expect(s.matches('confirming')).toBe(true);
    expect(revocation(s)).toEqual(revocation(p!));
  }
  if (s.matches('confirming') && event?.type === 'record.act') expect(revocation(s)).toEqual({ shareId: 's1', title: 'Trip planning' });
  // Nothing is revoked before the confirmation.
  if (s.matches('acting') && !p?.matches('acting')) expect(revokes().at(-1)?.shareId).toEqual('s1');
  if (s.matches('confirming') && event?.type === 'record.act') expect(revokes()).toEqual([]);

  const list: EventObject[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.goTo':
      list.push({ type: 'pager.goTo', page: 2 } as EventObject);
      break;
    case 'notice.show':
      out.push(notice('error', 'Failed to fetch shared links'));
      break;
    case 'xstate.done.actor.act':
      out.push(notice('success', SHARING_STOPPED));
      list.push({ type: 'pager.refetch' });
      break;
    case 'xstate.error.actor.act':
      // Already gone (stopped from another tab): the same outcome. Otherwise the link stays listed, and says why.
      if (event.error?.status === 404) {
        out.push(notice('success', SHARING_STOPPED));
        list.push({ type: 'pager.refetch' });
      } else {
        out.push(notice('error', STOP_SHARING_FAILED));
      }
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

runModelTest({
  name: 'shared-links',
  machine: sharedLinksMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    prev = null;
  },
  inputs: [sharedLinksInput],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, revocation(s)?.shareId ?? null]),
  edgeKeys: true,
  // The page has no dialog of its own, no search, filter or retry; its only act is a stop (a delete), asked first,
  // after which the list is read again, and a failed one keeps the question open: the record editor's own model test
  // takes these.
  notTakenByThisInput: {
    states: ['recordEditor.editing', 'recordEditor.saving'],
    transitions: [
      'recordEditor --list.search#0--> (self)',
      'recordEditor --list.filter#2--> (self)',
      'recordEditor --list.retry#3--> (self)',
      'recordEditor.browsing --record.edit#0--> recordEditor.editing',
      'recordEditor.browsing --record.act#2--> recordEditor.acting',
      'recordEditor.editing --record.change#0--> (self)',
      'recordEditor.editing --form.submit#1--> recordEditor.saving',
      'recordEditor.editing --form.submit#2--> (self)',
      'recordEditor.editing --form.cancel#3--> recordEditor.browsing',
      'recordEditor.saving --xstate.done.actor.save#0--> recordEditor.browsing',
      'recordEditor.saving --xstate.done.actor.save#1--> recordEditor.browsing',
      'recordEditor.saving --xstate.done.actor.save#2--> recordEditor.browsing',
      'recordEditor.saving --xstate.error.actor.save#3--> recordEditor.editing',
      'recordEditor.acting --xstate.done.actor.act#0--> recordEditor.browsing',
      'recordEditor.acting --xstate.done.actor.act#1--> recordEditor.browsing',
      'recordEditor.acting --xstate.error.actor.act#5--> recordEditor.browsing',
    ],
  },
  checks: { browsing: checkStep, confirming: checkStep, acting: checkStep },
});
