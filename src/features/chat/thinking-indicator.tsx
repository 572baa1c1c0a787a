import { STREAM_ACTIVITY_TEXT } from '../../../contract/chat-constants';
import type { StreamActivity } from '../../../contract/chat-stream';

/**
 * Shown in the assistant's place while the reply has not started (spec: a 'Thinking' indicator); says what the
 * server is doing instead when it said so (searching the web).
 */
export function ThinkingIndicator({ activity = null }: { activity?: StreamActivity | null }) {
  return (
    <div role="status" className="flex items-center gap-2 py-2 text-sm text-gray-600 dark:text-gray-300">
      <span className="flex gap-1" aria-hidden>
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 animate-bounce rounded-full bg-gray-500 motion-reduce:animate-none dark:bg-gray-400"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      {activity ? STREAM_ACTIVITY_TEXT[activity] : 'Thinking'}
    </div>
  );
}
