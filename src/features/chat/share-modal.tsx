import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Check, Copy, Link2Off } from 'lucide-react';
import { STOP_SHARING_CONFIRM, type shareMachine } from '../../../machines/share.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { RetryAlert } from '../../ui/retry-alert';
import { Modal } from '../../ui/modal';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';

export interface ShareModalProps {
  /** The chat screen's `share` child: the modal is open while it runs. */
  share: ActorRefFrom<typeof shareMachine>;
  onClose(): void;
}

/** 'Share Conversation' (spec section 2, Share modal; stopping a share: issue 28): a thin view of the share machine. */
export function ShareModal({ share, onClose }: ShareModalProps) {
  const view = useSelector(
    share,
    (s) => ({
      loading: s.hasTag('loading'),
      failure: s.matches('failed') ? s.context.failure : null,
      canRetry: s.can({ type: 'share.retry' }),
      url: s.matches('ready') ? s.context.url : null,
      copied: s.hasTag('copied'),
      confirming: s.matches('confirmingStop') || s.matches('stopping'),
      stopping: s.hasTag('busy'),
      stopped: s.matches('stopped'),
    }),
    shallowEqual,
  );
  return (
    <Modal isOpen onOpenChange={(open) => !open && !view.stopping && onClose()} isDismissable={!view.stopping} title="Share Conversation" size="lg">
      <div className="space-y-3">
        {!view.stopped && !view.confirming && <p className="text-sm text-gray-700 dark:text-gray-300">Anyone with this link can view this conversation:</p>}
        {view.loading && <Spinner label="Creating link" />}
        {view.failure &&
          (view.canRetry ? (
            <RetryAlert message={view.failure.text} onRetry={() => share.send({ type: 'share.retry' })} />
          ) : (
            // A refusal (the conversation is gone): asking again would get the same answer.
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {view.failure.text}.{view.failure.detail && ` ${view.failure.detail}.`}
            </p>
          ))}
        {view.url !== null && (
          <>
            <div className="flex items-end gap-2">
              <TextField label="Share link" value={view.url} isReadOnly className="min-w-0 flex-1" />
              {/* Never disabled while the clipboard answers: a disabled button would drop the focus out of the dialog. */}
              <Button
                variant="primary"
                onPress={() => share.send({ type: 'share.copy' })}
                aria-label={view.copied ? 'Link copied' : 'Copy link'}
              >
                {view.copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
                {view.copied ? 'Copied' : 'Copy'}
              </Button>
            </div>
            <div className="flex justify-end">
              <Button variant="ghost" size="sm" onPress={() => share.send({ type: 'share.stop' })}>
                <Link2Off aria-hidden className="size-4" /> Stop sharing
              </Button>
            </div>
          </>
        )}
        {view.confirming && (
          // Inside the dialog rather than a second one on top: the question and its two answers, focus on Cancel.
          <div role="alertdialog" aria-label="Stop sharing" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-3 dark:border-red-900 dark:bg-red-950/40">
            <p className="text-sm text-gray-900 dark:text-gray-100">{STOP_SHARING_CONFIRM}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button size="sm" autoFocus isDisabled={view.stopping} onPress={() => share.send({ type: 'share.stopCancel' })}>
                Cancel
              </Button>
              <Button variant="danger" size="sm" isPending={view.stopping} onPress={() => share.send({ type: 'share.stopConfirm' })}>
                Stop sharing
              </Button>
            </div>
          </div>
        )}
        {view.stopped && (
          <div className="space-y-3">
            <p role="status" className="text-sm text-gray-700 dark:text-gray-300">
              This conversation is no longer shared. The link no longer opens it.
            </p>
            <Button size="sm" onPress={() => share.send({ type: 'share.again' })}>
              Create a new link
            </Button>
          </div>
        )}
      </div>
    </Modal>
  );
}
