import type { SnapshotFrom } from 'xstate';
import { DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { titlePollInput, titlePollMachine } from '../../../machines/title-poll.machine';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof titlePollMachine>;

export const AFTER = 'xstate.after.POLL_INTERVAL.poll.waiting';
export const NAMED = 'Named by the server';

/**
 * The person's part is waiting (the clock moves 20 s on). What a check answers is the server's: named at once
 * locally; not yet named, or the fetch failing, only with a stub. After the second check only "not named yet" is
 * offered, so the one long path is the poll giving up after 20 checks (and not 3^20 ways down the ladder).
 */
function eventsFor(s: Snap): Step[] {
  if (s.value === 'waiting') return [{ type: AFTER }];
  if (s.value !== 'checking') return [];
  const notYet: Step = { type: 'xstate.done.actor.check', output: DEFAULT_CONVERSATION_TITLE, actorId: 'check' };
  if (s.context.attempts > 1) return [notYet];
  const named: Step = { type: 'xstate.done.actor.check', output: NAMED, actorId: 'check' };
  if (s.context.attempts === 1) return [named, notYet];
  return [
    named,
    notYet,
    { type: 'xstate.error.actor.check', error: new Error('500'), actorId: 'check' },
  ];
}

export { titlePollMachine };
export const titlePollPaths = asSteps<unknown>(coveringPaths(
  titlePollMachine,
  maximalPaths({
    machine: titlePollMachine,
    inputs: [titlePollInput('c1')],
    events: eventsFor as never,
    key: (s) => JSON.stringify([s.value, s.context.attempts]),
    simpleKey: (s) => JSON.stringify(s.value),
    edgeKeys: true,
    // A deployment's title is whatever its model names it: only the named answer is sure there.
    filterEvents: (_s, e) => isLocalServer || !(e.type === 'xstate.error.actor.check' || (e.type === 'xstate.done.actor.check' && (e as { output?: string }).output === DEFAULT_CONVERSATION_TITLE)),
  }),
));
