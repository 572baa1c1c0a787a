import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Check, Copy } from 'lucide-react';
import { SHARE_LINK_FAILED, type shareMachine } from '../../../machines/share.machine';
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

/** 'Share Conversation' (spec section 2, Share modal): a thin view of the share machine. */
export function ShareModal({ share, onClose }: ShareModalProps) {
  const view = useSelector(
    share,
    (s) => ({
      loading: s.hasTag('loading'),
      failed: s.matches('failed'),
      url: s.context.url,
      copied: s.hasTag('copied'),
    }),
    shallowEqual,
  );
  return (
    <Modal isOpen onOpenChange={(open) => !open && onClose()} title="Share Conversation" size="lg">
      <div className="space-y-3">
        <p className="text-sm text-gray-700 dark:text-gray-300">Anyone with this link can view this conversation:</p>
        {view.loading && <Spinner label="Creating link" />}
        {view.failed && <RetryAlert message={SHARE_LINK_FAILED} onRetry={() => share.send({ type: 'share.retry' })} />}
        {view.url !== null && (
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
        )}
      </div>
    </Modal>
  );
}
