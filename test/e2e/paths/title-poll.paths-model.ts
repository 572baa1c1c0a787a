import type { SnapshotFrom } from 'xstate';
import { DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { MAX_TITLE_POLL_ATTEMPTS, titlePollInput, titlePollMachine } from '../../../machines/title-poll.machine';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof titlePollMachine>;

export const AFTER = 'xstate.after.POLL_INTERVAL.poll.waiting';
export const NAMED = 'Named by the server';

/**
 * The person's part is waiting (the clock moves 20 s on). What a check answers is the server's, or a stub's: the
 * real answer once the server has named it; not yet named (the real answer with the default title), or the fetch
 * failing, with a stub. The first check fails; after the second check only "not named yet" is offered, and on the
 * last allowed check "not named yet" or a failure, so the long paths are the poll giving up after 20 checks either
 * way (and not 3^20 ways down the ladder). The stubs are the browser's, so every path runs against a deployment too.
 */
function eventsFor(s: Snap): Step[] {
  if (s.value === 'waiting') return [{ type: AFTER }];
  if (s.value !== 'checking') return [];
  const notYet: Step = { type: 'xstate.done.actor.check', output: DEFAULT_CONVERSATION_TITLE, actorId: 'check' };
  const failed: Step = { type: 'xstate.error.actor.check', error: new Error('500'), actorId: 'check' };
  const named: Step = { type: 'xstate.done.actor.check', output: NAMED, actorId: 'check' };
  const { attempts } = s.context;
  if (attempts === MAX_TITLE_POLL_ATTEMPTS - 1) return [notYet, failed];
  if (attempts > 1) return [notYet];
  if (attempts === 1) return [named, notYet];
  // The first check fails: every path then goes on past a failure, and none needs a sign-in of its own for it.
  return [failed];
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
  }),
));

/** What no browser can cause (test/e2e/paths/coverage.ts counts the rest). */
export const titlePollUnforceable: LeftOut[] = [
  { why: 'the product never sends poll.stop: the screen stops the poll actor when the person leaves', transitions: ['poll --poll.stop#0--> poll.stopped'] },
  { why: 'a title poll does not stop on errors (stopOnError is false in titlePollInput)', transitions: ['poll.checking --xstate.error.actor.check#3--> poll.failed'] },
];
