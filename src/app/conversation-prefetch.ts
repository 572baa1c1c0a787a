import { matchRoutes, type RouteObject } from 'react-router-dom';
import { fetchMessages } from '../api/chat';
import { rememberOpenedConversation } from '../lib/opened-conversation';
import { redirectFor, type Viewer } from './route-access';
import type { RouteHandle } from './routes';

/** The route whose address names a conversation, and how (routes.tsx: /chat?id=…). */
const CHAT_ROUTE_NAME = 'Chat';
const CONVERSATION_PARAM = 'id';

/**
 * Called once at boot, before the route's code has loaded. When the address opens a conversation that the route
 * guards let this visitor see, its latest page is requested now, beside the session's user reload: otherwise it
 * waits for the chat route's code and its first render. It is an ordinary call of the API client with the
 * session's access token, which is what authorises it (a 401 refreshes the session as any call does).
 * Returns the conversation requested, or null.
 */
export function prefetchOpenedConversation(
  routes: RouteObject[],
  location: Pick<Location, 'pathname' | 'search'>,
  basename: string,
  viewer: Viewer,
): string | null {
  const match = matchRoutes(routes, location.pathname, basename)?.at(-1);
  const handle = match?.route.handle as RouteHandle | undefined;
  const conversationId = new URLSearchParams(location.search).get(CONVERSATION_PARAM);
  if (!match || !handle || handle.name !== CHAT_ROUTE_NAME || !conversationId) return null;
  if (redirectFor(handle.access, viewer, match.pathname) !== null) return null;
  rememberOpenedConversation(conversationId, fetchMessages(conversationId));
  return conversationId;
}
