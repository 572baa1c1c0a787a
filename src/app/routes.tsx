import type { RouteObject } from 'react-router-dom';
import type { Access } from './route-access';
import { AppLayout } from './app-layout';
import { RouteError } from './route-error';
import { PageSpinner } from '../ui/page-spinner';
import { openedConversationSettled } from '../lib/opened-conversation';

/** How long the chat screen, its code loaded, waits for the opened conversation's messages before it is drawn without them. */
export const OPENED_CONVERSATION_WAIT_MS = 500;

export interface RouteHandle {
  /** The spec's route name, where it has one (theme colour reads it). */
  name?: string;
  access: Access;
}

type LazyModule = () => Promise<{ default: React.ComponentType }>;

/** Each area is its own chunk, so the login route loads only what login needs. */
function page(path: string, access: Access, load: LazyModule, name?: string): RouteObject {
  return {
    path,
    handle: { access, name } satisfies RouteHandle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/**
 * The chat's code, then the messages of the conversation the tab was opened on when they were asked for at boot
 * (conversation-prefetch.ts): they arrive about when the code does, and a first render without them would be drawn
 * with a spinner and then drawn again. A slow answer holds the screen back for OPENED_CONVERSATION_WAIT_MS at most
 * once its code is there.
 */
const chatScreen: LazyModule = async () => {
  const module = await import('../features/chat/chat-page');
  await openedConversationSettled(OPENED_CONVERSATION_WAIT_MS);
  return module;
};

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      page('/', 'guestOnly', () => import('../features/landing/landing-page')),
      page('/login', 'guestOnly', () => import('../features/auth/login-page'), 'Login'),
      page('/auth/sso', 'public', () => import('../features/auth/sso-callback-page'), 'SsoCallback'),
      page('/activate/:activationCode', 'public', () => import('../features/auth/activate-page')),
      page('/reset-password/:token', 'public', () => import('../features/auth/reset-password-page')),
      page('/home', 'login', () => import('./home-route'), 'Home'),
      page('/chat', 'login', chatScreen, 'Chat'),
      page('/share/:sharedId', 'login', () => import('../features/share/shared-page'), 'SharedChat'),
      page('/shared-links', 'login', () => import('../features/share/shared-links-page')),
      page('/profile', 'login', () => import('../features/profile/profile-page'), 'Profile'),
      page('/logout', 'public', () => import('../features/auth/logout-page')),
      page('/users', 'admin', () => import('../features/users/users-page')),
      page('/clients', 'superuser', () => import('../features/clients/clients-page')),
      page('/clients/:clientId/users', 'superuser', () => import('../features/users/client-users-page')),
      page('/system-prompts', 'superuser', () => import('../features/system-prompts/system-prompts-page')),
      page('/register', 'adminOrSuperuser', () => import('../features/users/register-page')),
      page('/departments', 'admin', () => import('../features/departments/departments-page')),
      page('/global-policy', 'admin', () => import('../features/global-policy/global-policy-page')),
      page('/feedback-inbox', 'adminOrSuperuser', () => import('../features/feedback-inbox/feedback-inbox-page')),
      page('/leads', 'superuser', () => import('../features/leads/leads-page')),
      page('/playground', 'public', () => import('../features/playground/playground-page')),
      page('/tips-example', 'login', () => import('../features/chat/tips-example-page')),
      page('*', 'public', () => import('../features/not-found/not-found-page')),
    ],
  },
];
