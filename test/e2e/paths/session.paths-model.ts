import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { coverageOf, type ModelPath } from '../../model/support/model-paths';
import { SSO_REDIRECT_DELAY_MS } from '../../../contract/sso-constants';
import { sessionMachine } from '../../../machines/session.machine';
import { accounts, password } from '../helpers/accounts';
import { asSteps, chainPaths, coveringPaths, maximalPaths, type Step, valueName } from './paths-support';

type Snap = SnapshotFrom<typeof sessionMachine>;
type Path = ModelPath<typeof sessionMachine>;

/** Only the type and the login's email matter to the browser; the user object only makes the model restore. */
const storedUser = { id: 'stored', name: 'Stored', email: accounts.user } as never;
/** A tab opened on a signed-in browser: the session comes from storage. */
export const RESTORED = { token: 'stored-access', refreshToken: 'stored-refresh', user: storedUser };

/** The single sign-on callback's fragments: tokens (the browser's are real ones), and a refresh token alone. */
export const SSO_TOKENS = '#access_token=sso-access&refresh_token=sso-refresh';
export const SSO_NO_TOKEN = '#refresh_token=sso-refresh&token_type=bearer';
/** The 2 s 'Successfully logged in' shows before Home (the machine's delay event). */
export const SSO_AFTER = 'xstate.after.ssoRedirect.session.ssoWelcome';
export { SSO_REDIRECT_DELAY_MS };

const login: Step = { type: 'session.login', email: accounts.user, password };

/**
 * What a person can do, by where the session is: on the sign-in page sign in, dismiss the banner (only when there
 * is one), 'Sign in with Microsoft' (then come back with the browser's Back) and arrive from the provider on the
 * callback (with tokens, or with none); signed in (once landed) open Logout, save the profile, pick Dark, sign in by
 * single sign-on again, or come back later with a stale access token (a refresh); while a refresh is under way,
 * Logout. The app's own steps are generated where they follow by themselves: landing after a sign-in, Home 2 s
 * after 'Successfully logged in', the logout after an expiry.
 */
function eventsFor(s: Snap): Step[] {
  const c = s.context;
  switch (valueName(s.value)) {
    case 'loggedOut':
      return [
        login,
        ...(c.error !== null ? [{ type: 'session.dismissError' }] : []),
        { type: 'session.ssoCallback', fragment: SSO_TOKENS },
        { type: 'session.ssoCallback', fragment: SSO_NO_TOKEN },
        { type: 'session.ssoStart' },
      ];
    case 'ssoRedirecting':
      return [{ type: 'session.ssoAbandoned' }];
    case 'ssoLoadingUser':
      return [
        { type: 'xstate.done.actor.loadUser', output: storedUser },
        { type: 'xstate.error.actor.loadUser', error: new Error('401') },
      ];
    case 'ssoWelcome':
      return [{ type: SSO_AFTER }];
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
      // Just signed in, the app lands first; a theme being saved is answered before anything else is done.
      if (c.justSignedIn) return [{ type: 'session.landed' }];
      if (c.themeBeforeSave !== null) {
        return [
          { type: 'xstate.done.actor.saveTheme', output: { ...(c.user as object), theme: 'dark' } },
          { type: 'xstate.error.actor.saveTheme', error: new Error('500') },
        ];
      }
      return [
        { type: 'session.refresh' },
        { type: 'session.logout' },
        { type: 'session.replaced', user: storedUser },
        ...((c.user as { theme?: string } | null)?.theme === 'dark' ? [] : [{ type: 'session.themeChosen', theme: 'dark' }]),
        { type: 'session.ssoCallback', fragment: SSO_TOKENS },
      ];
    case 'refreshing':
      return [
        { type: 'xstate.done.actor.refresh', output: { access_token: 'a', refresh_token: 'r' } },
        { type: 'xstate.error.actor.refresh', error: new Error('401') },
        { type: 'session.logout' },
      ];
    case 'expired':
      return [{ type: 'session.logout' }];
    case 'loggingOut':
      // After an expiry there is no refresh token to revoke: no call is made, so none can fail.
      return [
        { type: 'xstate.done.actor.logout', output: undefined },
        ...(c.refreshToken !== null ? [{ type: 'xstate.error.actor.logout', error: new Error('500') }] : []),
      ];
    default:
      return [];
  }
}

/** What the model tells states apart by: where the session is and what decides the events offered there. */
const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.userStale, s.context.justSignedIn, s.context.error !== null, s.context.themeBeforeSave !== null, s.context.user?.theme ?? null]);

/** Replays a path from its input, with every snapshot on the way (the first is the start). */
function replay(path: { input: unknown; events: Step[] }): Snap[] {
  let [s] = initialTransition(sessionMachine, path.input as never);
  const out = [s];
  for (const e of path.events) {
    [s] = transition(sessionMachine, s, e as never);
    out.push(s);
  }
  return out;
}

/** Where the session is before each of the path's events ('loggedIn.ready' and the like), from the model. */
export const statesBefore = (path: { input: object; events: Step[] }): string[] => replay(path).slice(0, -1).map((s) => valueName(s.value));

/**
 * Kept paths joined: a path that ends where (by the model's key) another one starts or passes is continued with
 * that one's rest (a signed-out path goes on from any path that has signed out) when that loses nothing either
 * reached, so they cost one sign-in and page load instead of one each.
 */
function joined(paths: Path[]): Path[] {
  const steps = (p: Path) => ({ input: p.input, events: p.events as Step[] });
  const join = (first: Path, then: Path): Path | null => {
    const end = key(replay(steps(first)).at(-1)!);
    const i = replay(steps(then)).findIndex((s) => key(s) === end);
    if (i < 0) return null;
    const events = [...(first.events as Step[]), ...(then.events as Step[]).slice(i)];
    const both: Path = { ...first, events: events as never, values: [], description: events.map((e) => e.type).join(' → ') };
    // Only when nothing either reached is lost (the part of `then` before the meeting point is left out).
    const apart = coverageOf(sessionMachine, [first, then]);
    const together = coverageOf(sessionMachine, [both]);
    return together.states.covered === apart.states.covered && together.transitions.covered === apart.transitions.covered ? both : null;
  };
  return chainPaths(paths, join);
}

export { sessionMachine };
export const sessionPaths = asSteps<{ user?: unknown }>(
  joined(
    coveringPaths(
      sessionMachine,
      maximalPaths({
        machine: sessionMachine,
        inputs: [{}, RESTORED],
        events: eventsFor as never,
        // userStale decides whether a sign-in or a restore lands in loadingUser; the rest decides what is offered.
        key,
        simpleKey: (s) => JSON.stringify([s.value, s.context.justSignedIn, s.context.error !== null, s.context.themeBeforeSave !== null]),
      }),
    ),
  ),
);
