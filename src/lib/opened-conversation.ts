import type { ConversationMessages } from '../../contract/chat';

/**
 * A tab opened on a conversation (/chat?id=…) asks for its latest page while the app boots (src/app/
 * conversation-prefetch.ts), not once the chat route's code has loaded and its screen has rendered. The chat's
 * first load of that conversation takes the request from here instead of sending its own.
 */
let opened: { conversationId: string; page: Promise<ConversationMessages>; startedAt: number } | null = null;

/**
 * Past this the boot's answer may be out of date: a visitor sent elsewhere first (a guard, a changed role) who
 * opens the conversation later gets a fresh load.
 */
export const OPENED_CONVERSATION_FRESH_MS = 10_000;

export function rememberOpenedConversation(conversationId: string, page: Promise<ConversationMessages>, now = Date.now()): void {
  // A failure is reported by the load that takes it; one nobody takes must not surface as an unhandled rejection.
  page.catch(() => undefined);
  opened = { conversationId, page, startedAt: now };
}

/** The boot's request for this conversation, if it is still fresh; handed out once, and any first load clears it. */
export function takeOpenedConversation(conversationId: string, now = Date.now()): Promise<ConversationMessages> | null {
  const taken = opened;
  opened = null;
  if (!taken || taken.conversationId !== conversationId || now - taken.startedAt > OPENED_CONVERSATION_FRESH_MS) return null;
  return taken.page;
}
