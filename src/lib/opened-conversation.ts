import type { ConversationMessages } from '../../contract/chat';

/**
 * A tab opened on a conversation (/chat?id=…) asks for its latest page while the app boots (src/app/
 * conversation-prefetch.ts), not once the chat route's code has loaded and its screen has rendered. The chat's
 * first load of that conversation takes the request from here instead of sending its own.
 */
let opened: {
  conversationId: string;
  page: Promise<ConversationMessages>;
  startedAt: number;
  arrived?: ConversationMessages;
  /** Settles once the page has arrived (and `arrived` is set) or failed. */
  settled: Promise<void>;
} | null = null;

/**
 * Past this the boot's answer may be out of date: a visitor sent elsewhere first (a guard, a changed role) who
 * opens the conversation later gets a fresh load.
 */
export const OPENED_CONVERSATION_FRESH_MS = 10_000;

export function rememberOpenedConversation(conversationId: string, page: Promise<ConversationMessages>, now = Date.now()): void {
  // A failure is reported by the load that takes it; one nobody takes must not surface as an unhandled rejection.
  const settled = page.then(
    (value) => void (entry.arrived = value),
    () => undefined,
  );
  const entry: NonNullable<typeof opened> = { conversationId, page, startedAt: now, settled };
  opened = entry;
}

/**
 * The boot's page of this conversation when it has already arrived (and is still fresh): handed out once, for the
 * chat to start with it (machines/chat-send.machine.ts, "A page in hand"). Null while it is on its way: the
 * chat's first load then takes the request (takeOpenedConversation).
 */
export function takeArrivedConversation(conversationId: string, now = Date.now()): ConversationMessages | null {
  if (!opened?.arrived || opened.conversationId !== conversationId || now - opened.startedAt > OPENED_CONVERSATION_FRESH_MS) return null;
  const { arrived } = opened;
  opened = null;
  return arrived;
}

/** The boot's request for this conversation, if it is still fresh; handed out once, and any first load clears it. */
export function takeOpenedConversation(conversationId: string, now = Date.now()): Promise<ConversationMessages> | null {
  const taken = opened;
  opened = null;
  if (!taken || taken.conversationId !== conversationId || now - taken.startedAt > OPENED_CONVERSATION_FRESH_MS) return null;
  return taken.page;
}

/**
 * Resolves once the boot's page has arrived or failed, or after `limitMs`; at once when none is on its way. The chat
 * route's code waits for it (routes.tsx), so a tab opened on a conversation draws the screen once, with its
 * messages, rather than first with a spinner where they go and then again.
 */
export function openedConversationSettled(limitMs: number): Promise<void> {
  if (!opened || opened.arrived) return Promise.resolve();
  const { settled } = opened;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    void settled.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
