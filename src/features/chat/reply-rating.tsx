import { useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Dialog } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Popover } from 'react-aria-components/Popover';
import { ToggleButton } from 'react-aria-components/ToggleButton';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import type { ReplyRating as Rating } from '../../../contract/feedback-constants';
import { RATING_COMMENT_MAX_LENGTH } from '../../../contract/feedback-constants';
import { rateReply } from '../../api/feedback';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { fieldStyles } from '../../ui/field-styles';
import { TextArea } from '../../ui/text-area';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { Tooltip } from '../../ui/tooltip';
import { defineReplyRatingMachine } from './reply-rating-actors';

const machine = defineReplyRatingMachine({ api: { rateReply } });

const thumb =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-600 hover:bg-gray-200 hover:text-gray-900 ' +
  'data-[selected]:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-700 dark:hover:text-white dark:data-[selected]:text-white';

export interface ReplyRatingProps {
  messageId: string;
  /** The person's rating as the server sent it with the messages; null for none. */
  rating: Rating | null;
}

/**
 * Thumbs up / down under an assistant's reply: a thin view of the reply-rating machine. A thumbs down opens a
 * small dialog for an optional comment, which says who reads it.
 */
export function ReplyRating(props: ReplyRatingProps) {
  // A reply whose send failed before the server named it has only a temporary id: there is nothing to rate.
  return props.messageId.startsWith('temp-') ? null : <Thumbs {...props} />;
}

function Thumbs({ messageId, rating }: ReplyRatingProps) {
  const actor = useActorRef(machine, { input: { messageId, rating } });
  const downRef = useRef<HTMLButtonElement>(null);
  useNoticeToasts(actor);
  const view = useSelector(
    actor,
    (s) => ({
      rating: s.context.rating,
      commenting: s.matches('commenting') || s.matches('sendingComment'),
      sending: s.matches('sendingComment'),
      comment: s.context.comment,
      commentError: s.context.commentError,
    }),
    shallowEqual,
  );
  const choose = (pressed: Rating) => actor.send({ type: 'rating.choose', rating: pressed });

  return (
    <>
      <Tooltip content="Good reply">
        <ToggleButton aria-label="Good reply" isSelected={view.rating === 'up'} onChange={() => choose('up')} className={thumb}>
          <ThumbsUp aria-hidden className="size-4" fill={view.rating === 'up' ? 'currentColor' : 'none'} />
        </ToggleButton>
      </Tooltip>
      <Tooltip content="Bad reply">
        <ToggleButton ref={downRef} aria-label="Bad reply" isSelected={view.rating === 'down'} onChange={() => choose('down')} className={thumb}>
          <ThumbsDown aria-hidden className="size-4" fill={view.rating === 'down' ? 'currentColor' : 'none'} />
        </ToggleButton>
      </Tooltip>
      <Popover
        triggerRef={downRef}
        isOpen={view.commenting}
        onOpenChange={(open) => !open && !view.sending && actor.send({ type: 'comment.skip' })}
        placement="bottom start"
        offset={6}
        className={`${fieldStyles.popover} w-80 max-w-[calc(100vw-2rem)]`}
      >
        <Dialog aria-labelledby={`rating-comment-${messageId}`} className="space-y-3 p-4 outline-hidden">
          <Heading slot="title" id={`rating-comment-${messageId}`} className="text-sm font-semibold">
            What went wrong?
          </Heading>
          <TextArea
            label="Comment (optional)"
            rows={3}
            autoFocus
            maxLength={RATING_COMMENT_MAX_LENGTH}
            value={view.comment}
            onChange={(text) => actor.send({ type: 'comment.edit', text })}
            errorMessage={view.commentError ?? undefined}
            description="Your organisation's admins see your rating, this comment and the start of the reply."
          />
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="secondary" isDisabled={view.sending} onPress={() => actor.send({ type: 'comment.skip' })}>
              Skip
            </Button>
            <Button size="sm" variant="primary" isPending={view.sending} onPress={() => actor.send({ type: 'comment.send' })}>
              Send
            </Button>
          </div>
        </Dialog>
      </Popover>
    </>
  );
}
