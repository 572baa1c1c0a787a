import { Bug, MessageSquareText, ThumbsDown, ThumbsUp } from 'lucide-react';
import type { InboxItem } from '../../../contract/feedback';
import type { FeedbackLevel } from '../../../contract/feedback-constants';
import { formatDateTime } from '../../lib/format-date';

const LEVEL_LABELS: Record<FeedbackLevel, string> = {
  POOR: 'Poor',
  BELOW_AVERAGE: 'Below average',
  AVERAGE: 'Average',
  GOOD: 'Good',
  EXCELLENT: 'Excellent',
};

/** What the entry is, in words and with an icon. */
function kindOf(item: InboxItem) {
  if (item.kind === 'report') return { label: 'Issue report', Icon: Bug };
  if (item.kind === 'feedback') return { label: `Feedback: ${item.level ? LEVEL_LABELS[item.level] : 'no rating'}`, Icon: MessageSquareText };
  return item.rating === 'up' ? { label: 'Reply rated good', Icon: ThumbsUp } : { label: 'Reply rated bad', Icon: ThumbsDown };
}

/**
 * One entry of the inbox as a card: what it is, who sent it and when, and what they wrote; a rating quotes the
 * start of the reply it is about. Long words wrap, so a 390 px screen never scrolls sideways.
 */
export function InboxEntry({ item, showOrganisation }: { item: InboxItem; showOrganisation: boolean }) {
  const { label, Icon } = kindOf(item);
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4 break-words dark:border-gray-700 dark:bg-gray-900">
      <article aria-label={`${label} from ${item.user_name}`} className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <p className="flex items-center gap-2 text-sm font-semibold text-gray-900 dark:text-gray-50">
            <Icon aria-hidden className="size-4 shrink-0" />
            {label}
          </p>
          <time dateTime={item.created_at} className="text-xs text-gray-600 dark:text-gray-300">
            {formatDateTime(item.created_at)}
          </time>
        </div>
        <p className="min-w-0 text-sm text-gray-700 dark:text-gray-300">
          {item.user_name} <span className="text-gray-600 dark:text-gray-400">({item.user_email})</span>
          {showOrganisation && <> · {item.client_name ?? 'No organisation'}</>}
        </p>
        {item.text ? (
          <p className="text-sm whitespace-pre-wrap text-gray-900 dark:text-gray-100">{item.text}</p>
        ) : (
          <p className="text-sm text-gray-600 italic dark:text-gray-400">No comment</p>
        )}
        {item.reply_excerpt !== null && (
          <blockquote className="border-l-4 border-gray-300 pl-3 text-sm text-gray-700 dark:border-gray-600 dark:text-gray-300">
            <span className="sr-only">The reply: </span>
            {item.reply_excerpt}
          </blockquote>
        )}
      </article>
    </li>
  );
}
