import type { SnapshotFrom } from 'xstate';
import { sessionMachine } from '../../../machines/session.machine';
import { accounts, password } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof sessionMachine>;

/** Only the type and the login's email matter to the browser; the user object only makes the model restore. */
const storedUser = { id: 'stored', name: 'Stored', email: accounts.user } as never;
/** A tab opened on a signed-in browser: the session comes from storage. */
export const RESTORED = { token: 'stored-access', refreshToken: 'stored-refresh', user: storedUser };

const login: Step = { type: 'session.login', email: accounts.user, password };

function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loggedOut':
      return [login, { type: 'session.dismissError' }];
    case 'authenticating':
      return [
        { type: 'xstate.done.actor.login', output: { access_token: 'a', refresh_token: 'r', user: storedUser } },
        { type: 'xstate.error.actor.login', error: new Error('Incorrect email or password') },
      ];
    case 'loggedIn.loadingUser':
      return [
        { type: 'xstate.done.actor.loadUser', output: storedUser },
        { type: 'xstate.error.actor.loadUser', error: new Error('500') },
        { type: 'session.refresh' },
      ];
    case 'loggedIn.ready':
      return [{ type: 'session.refresh' }, { type: 'session.logout' }];
    case 'refreshing':
      return [{ type: 'xstate.done.actor.refresh', output: { access_token: 'a', refresh_token: 'r' } }, { type: 'xstate.error.actor.refresh', error: new Error('401') }];
    case 'expired':
      return [{ type: 'session.logout' }];
    case 'loggingOut':
      return [{ type: 'xstate.done.actor.logout', output: undefined }];
    default:
      return [];
  }
}

export { sessionMachine };
export const sessionPaths = asSteps<{ user?: unknown }>(coveringPaths(sessionMachine, maximalPaths({
  machine: sessionMachine,
  inputs: [{}, RESTORED],
  events: eventsFor as never,
  // userStale decides whether a sign-in or a restore lands in loadingUser.
  key: (s) => JSON.stringify([s.value, s.context.userStale]),
})));
