import { useCallback, useEffect, useLayoutEffect, useRef, type ComponentProps } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ActorRefFrom } from 'xstate';
import { ArrowDown, RefreshCw } from 'lucide-react';
import type { ChatMessage } from '../../../contract/chat';
import type { StreamActivity } from '../../../contract/chat-stream';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { useAfterFirstPaint } from '../../lib/use-after-first-paint';
import { useFrameSelector } from '../../lib/use-frame-selector';
import type { chatSendMachine } from '../../../machines/chat-send.machine';
import { MessageItem } from './message-item';
import { useStickToBottom } from './use-stick-to-bottom';

export interface MessageListProps {
  messages: ChatMessage[];
  /** Id of the assistant message being streamed into. */
  streamingId: string | null;
  /** The reply shown as being written (the chat-send machine's replyBeingWrittenId). */
  writingId: string | null;
  /** The chat-send machine, whose streamed text only the message being streamed into reads. */
  send: ActorRefFrom<typeof chatSendMachine>;
  isThinking: boolean;
  /** What the server is doing before the reply's text (searching the web), while thinking; else null. */
  activity: StreamActivity | null;
  isBusy: boolean;
  isStreaming: boolean;
  networkError: boolean;
  /** Why the server refused the last send, when it said so. */
  failureDetail: string | null;
  isRefreshing: boolean;
  /** The machine would load the messages before these now (`can`); the list asks when the reader nears the top. */
  canLoadEarlier: boolean;
  isLoadingEarlier: boolean;
  onLoadEarlier(): void;
  onEdit(messageId: string, text: string): void;
  /** 'Save to Personal Prompt Library' for one of the person's own messages. */
  onSavePrompt(text: string): void;
  /** The last reply, when it can be asked for again; null otherwise. */
  regenerateId: string | null;
  onRegenerate(): void;
  onRefresh(): void;
}

/**
 * A message of the list; the one being streamed into is given the chat-send machine and shows the text streamed so
 * far. Only that row reads it, so a delta re-renders that message alone, at most once a frame: read at the page, each
 * delta re-rendered the whole screen (sidebar, composer, list). The offline responder's reply at a model's pace (130
 * words, one every 40 ms) took 0.84-1.09 s of the renderer's script time then, and 0.27-0.35 s read here; at the
 * browser suite's pace (3 words every 120 ms) 0.56-0.61 s and 0.28-0.29 s (Chromium's Performance metrics, 4 replies
 * a run, two runs each). Every row is this one component, so the streamed message is not drawn anew (nor
 * its open disclosures or focus lost) when its reply ends.
 */
function MessageRow({ send, ...item }: { send: MessageListProps['send'] | null } & Omit<ComponentProps<typeof MessageItem>, 'liveText'>) {
  const liveText = useFrameSelector(send, (s) => s.context.streamingText);
  return <MessageItem {...item} liveText={liveText} />;
}

/** How near the top (px) the reader scrolls before the earlier messages are asked for, so they are there in time. */
export const LOAD_EARLIER_THRESHOLD_PX = 400;

/** The message at the top of the screen and how far below the screen's top it starts (negative: partly above). */
interface Anchor {
  id: string;
  offset: number;
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
 * The virtualizer's start (read once, before the scroller exists): the list opens at its end, so the first render
 * lays out the last messages, not the first ones (rendered, markdown and all, only to be replaced once the list
 * is scrolled down), and as many as fill `viewportHeight` (the window's: the scroller is not measured yet).
 */
export function openAtEnd(messages: Pick<ChatMessage, 'content'>[], viewportHeight: number) {
  return {
    initialOffset: () => messages.reduce((sum, m) => sum + estimateMessageHeight(m.content), 0),
    initialRect: { width: 0, height: viewportHeight },
  };
}

/** Rows drawn beyond the visible ones: few for the first paint (each is a markdown render), more once it is done. */
export const FIRST_PAINT_OVERSCAN = 0;
export const OVERSCAN = 6;

/**
 * The conversation, virtualised: only the messages near the viewport are in the DOM, so a 1,000-message
 * conversation opens and scrolls like a short one. Follows the reply while the reader stays near the bottom.
 */
export function MessageList(props: MessageListProps) {
  const { messages, streamingId, writingId, send, isThinking, isBusy, isStreaming, networkError, failureDetail, isRefreshing, onEdit, onRefresh } = props;
  const { canLoadEarlier, isLoadingEarlier, onLoadEarlier } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { atBottom, jumpToLatest } = useStickToBottom(scrollRef);
  // Few rows for the first paint, more once it is done (smooth scrolling needs rows ready).
  const overscan = useAfterFirstPaint() ? OVERSCAN : FIRST_PAINT_OVERSCAN;
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    // Close estimates keep the first paint of a long conversation from being laid out twice.
    estimateSize: (i) => estimateMessageHeight(messages[i]!.content),
    ...openAtEnd(messages, typeof window === 'undefined' ? 0 : window.innerHeight),
    overscan,
    getItemKey: (i) => messages[i]!.id,
  });

  // A new message from the person (a send or an edit: the question, then its reply) follows the answer again;
  // earlier messages put above are not new.
  const lastUserId = messages.slice(-2).findLast((m) => m.sender === 'user')?.id;
  useEffect(() => {
    if (lastUserId) jumpToLatest();
  }, [lastUserId, jumpToLatest]);

  // Where the reader is, kept up to date so that earlier messages put above can leave it where it was.
  const anchor = useRef<Anchor | null>(null);
  const rememberAnchor = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop;
    const row = virtualizer.getVirtualItemForOffset(top);
    anchor.current = row ? { id: String(row.key), offset: row.start - top } : null;
  }, [virtualizer]);

  const askForEarlier = useCallback(() => {
    const el = scrollRef.current;
    if (el && canLoadEarlier && el.scrollTop <= LOAD_EARLIER_THRESHOLD_PX) onLoadEarlier();
  }, [canLoadEarlier, onLoadEarlier]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      rememberAnchor();
      askForEarlier();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [rememberAnchor, askForEarlier]);

  // The first message changed: earlier messages were put before the ones shown (the reader stays where they
  // were), or another conversation is shown (it opens at its end).
  const firstId = messages[0]?.id;
  const shownFirstId = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const before = shownFirstId.current;
    shownFirstId.current = firstId;
    if (firstId === before || !messages.length) return;
    const kept = anchor.current;
    const prepended = before !== undefined && messages.some((m) => m.id === before);
    const at = prepended && kept ? messages.findIndex((m) => m.id === kept.id) : -1;
    const el = scrollRef.current;
    if (at >= 0 && el) {
      // Where that message starts now, with the rows put above at their estimated (or, once drawn, measured)
      // heights; the virtualizer keeps it in place as they are measured later.
      const [start] = virtualizer.getOffsetForIndex(at, 'start') ?? [0];
      el.scrollTop = start - kept!.offset;
    } else if (!prepended) {
      virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    }
    // Only when the first message changes, not on every new message.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstId]);

  // A page that does not fill the screen cannot be scrolled: ask for more at once (after each page that came).
  useEffect(() => {
    const el = scrollRef.current;
    if (el && el.scrollHeight - el.clientHeight <= LOAD_EARLIER_THRESHOLD_PX) askForEarlier();
    // After a page arrived, not after a failure (that would ask again and again).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstId]);

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scrollRef} className="h-full overflow-y-auto [overflow-anchor:none]" data-testid="message-scroller">
        <div className="relative mx-auto w-full max-w-3xl px-4" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const message = messages[row.index]!;
            const live = message.id === streamingId;
            const item = {
              message,
              isThinking: live && isThinking,
              activity: live ? props.activity : null,
              isBusy,
              isWriting: message.id === writingId,
              onEdit,
              onSavePrompt: props.onSavePrompt,
              onRegenerate: message.id === props.regenerateId ? props.onRegenerate : undefined,
            };
            return (
              <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="absolute left-0 top-0 w-full px-4" style={{ transform: `translateY(${row.start}px)` }}>
                <MessageRow send={live ? send : null} {...item} />
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
      {isLoadingEarlier && (
        <div className="pointer-events-none absolute left-1/2 top-2 -translate-x-1/2 rounded-full bg-white/90 px-3 py-1 shadow-sm dark:bg-gray-800/90">
          <Spinner label="Loading earlier messages" />
        </div>
      )}
      {isStreaming && !atBottom && (
        <Button variant="secondary" size="sm" className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md" onPress={jumpToLatest}>
          <ArrowDown aria-hidden className="size-4" /> Jump to latest
        </Button>
      )}
    </div>
  );
}
