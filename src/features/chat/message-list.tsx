import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, RefreshCw } from 'lucide-react';
import type { ChatMessage } from '../../../contract/chat';
import { Button } from '../../ui/button';
import { MessageItem } from './message-item';
import { useStickToBottom } from './use-stick-to-bottom';

export interface MessageListProps {
  messages: ChatMessage[];
  /** Id of the assistant message being streamed into, and its live text. */
  streamingId: string | null;
  liveText: string;
  isThinking: boolean;
  isBusy: boolean;
  isStreaming: boolean;
  networkError: boolean;
  /** Why the server refused the last send, when it said so. */
  failureDetail: string | null;
  isRefreshing: boolean;
  onEdit(messageId: string, text: string): void;
  onRefresh(): void;
}

const LINE_PX = 28;
const CHARS_PER_LINE = 90;
const MESSAGE_CHROME_PX = 64;

/** A rough height of a message before it is measured: its lines of text at the column's width, plus padding. */
export function estimateMessageHeight(content: string): number {
  const lines = content.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / CHARS_PER_LINE)), 0);
  return MESSAGE_CHROME_PX + lines * LINE_PX;
}

/**
 * The conversation, virtualised: only the messages near the viewport are in the DOM, so a 1,000-message
 * conversation opens and scrolls like a short one. Follows the reply while the reader stays near the bottom.
 */
export function MessageList(props: MessageListProps) {
  const { messages, streamingId, liveText, isThinking, isBusy, isStreaming, networkError, failureDetail, isRefreshing, onEdit, onRefresh } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { atBottom, jumpToLatest } = useStickToBottom(scrollRef);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // Close estimates keep the first paint of a long conversation from being laid out twice.
    estimateSize: (i) => estimateMessageHeight(messages[i]!.content),
    overscan: 6,
    getItemKey: (i) => messages[i]!.id,
  });

  // A new message from the person (a send or an edit) follows the answer again.
  const lastUserId = messages.findLast((m) => m.sender === 'user')?.id;
  useEffect(() => {
    if (lastUserId) jumpToLatest();
  }, [lastUserId, jumpToLatest]);

  // Opening a conversation starts at its end.
  const firstId = messages[0]?.id;
  useEffect(() => {
    if (messages.length) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    // Only when another conversation is shown, not on every new message.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstId]);

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scrollRef} className="h-full overflow-y-auto" data-testid="message-scroller">
        <div className="relative mx-auto w-full max-w-3xl px-4" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const message = messages[row.index]!;
            const live = message.id === streamingId;
            return (
              <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="absolute left-0 top-0 w-full px-4" style={{ transform: `translateY(${row.start}px)` }}>
                <MessageItem
                  message={message}
                  liveText={live ? liveText : undefined}
                  isThinking={live && isThinking}
                  isBusy={isBusy}
                  onEdit={onEdit}
                />
              </div>
            );
          })}
        </div>
        {networkError && (
          <div className="mx-auto flex max-w-3xl flex-col items-center gap-2 px-4 pb-4">
            {failureDetail && <p className="text-sm text-gray-700 dark:text-gray-300">{failureDetail}</p>}
            <Button variant="secondary" size="sm" isPending={isRefreshing} onPress={onRefresh}>
              <RefreshCw aria-hidden className="size-4" /> Refresh message
            </Button>
          </div>
        )}
      </div>
      {isStreaming && !atBottom && (
        <Button variant="secondary" size="sm" className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md" onPress={jumpToLatest}>
          <ArrowDown aria-hidden className="size-4" /> Jump to latest
        </Button>
      )}
    </div>
  );
}
