import { messageTimeLabel, messageTimeTitle } from '../../lib/message-time-label';

/**
 * When a message was written ('Today 02:03 PM'), with the full date as its title. It sits in the message's action
 * row, so it shows where the actions do: on hover and while anything in the message has keyboard focus on a
 * laptop, always on a phone (no hover there); screen readers read it in either case.
 */
export function MessageTime({ createdAt }: { createdAt: string }) {
  const label = messageTimeLabel(createdAt);
  if (!label) return null;
  return (
    <time dateTime={createdAt} title={messageTimeTitle(createdAt)} className="self-center px-1.5 text-xs text-gray-600 tabular-nums dark:text-gray-400">
      {label}
    </time>
  );
}
