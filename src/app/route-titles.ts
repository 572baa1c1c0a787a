import { matchPath } from 'react-router-dom';

/** The product's name, after every page's own title ('Users · Tanya'), and alone on the landing page. */
export const APP_NAME = 'Tanya';

/**
 * Each route's tab title. `null`: the page names the tab itself (the chat: the conversation's title). Patterns are
 * the router's (routes.tsx); the first that matches wins, so the catch-all comes last.
 */
const ROUTE_TITLES: ReadonlyArray<readonly [pattern: string, title: string | null]> = [
  ['/', APP_NAME],
  ['/login', 'Sign in'],
  ['/auth/sso', 'Signing in'],
  ['/activate/:activationCode', 'Activate your account'],
  ['/reset-password/:token', 'Reset password'],
  ['/home', 'Home'],
  ['/chat', null],
  ['/share/:sharedId', 'Shared Conversation'],
  ['/shared-links', 'Shared Links'],
  ['/profile', 'My Profile'],
  ['/logout', 'Signing out'],
  ['/users', 'Users'],
  ['/clients', 'Client Management'],
  ['/clients/:clientId/users', 'Client Users Management'],
  ['/system-prompts', 'System Prompts'],
  ['/register', 'Register'],
  ['/departments', 'Departments'],
  ['/global-policy', 'Global Policy'],
  ['/feedback-inbox', 'Feedback Inbox'],
  ['/playground', 'Playground'],
  ['/tips-example', 'Tips'],
  ['*', 'Page not found'],
];

/** The tab title of a path: `null` when its page sets the title itself. */
export function routeTitle(pathname: string): string | null {
  const found = ROUTE_TITLES.find(([pattern]) => matchPath(pattern, pathname));
  return found ? found[1] : APP_NAME;
}
