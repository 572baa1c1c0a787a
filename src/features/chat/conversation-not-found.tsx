import { MessageSquareOff, SquarePen } from 'lucide-react';
import { Button } from '../../ui/button';

/** The header's title while the opened conversation is not there (the one heading of the screen). */
export const CONVERSATION_NOT_FOUND = 'Conversation not found';
export const CONVERSATION_NOT_FOUND_TEXT = 'It may have been deleted, or the link is wrong.';

/**
 * What the chat shows in place of the messages and the message box when the server has no such conversation for
 * this person (the chat-send machine's `notFound`): said once, with the way on. A failed load for any other
 * reason is not this (it keeps its toast and retry).
 */
export function ConversationNotFound({ onNewChat }: { onNewChat: () => void }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 px-4 pb-[10vh] text-center" data-testid="conversation-not-found">
      <MessageSquareOff aria-hidden className="size-10 text-gray-500 dark:text-gray-400" />
      <p className="max-w-md text-base text-gray-700 dark:text-gray-200">{CONVERSATION_NOT_FOUND_TEXT}</p>
      <Button variant="primary" onPress={onNewChat}>
        <SquarePen aria-hidden className="size-4" /> Start a new chat
      </Button>
    </div>
  );
}
