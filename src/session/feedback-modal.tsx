import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { feedbackLevels, type FeedbackLevel, type FeedbackType } from '../../contract/feedback-constants';
import { feedbackMachine } from '../../machines/feedback.machine';
import { submitFeedback } from '../api/feedback';
import { shallowEqual } from '../lib/shallow-equal';
import { Button } from '../ui/button';
import { Modal } from '../ui/modal';
import { Select } from '../ui/select';
import { TextArea } from '../ui/text-area';
import { useNoticeToasts } from '../ui/use-notice-toasts';
import { defineFeedbackActors } from './feedback-actors';

/**
 * 'Submit Feedback' / 'Report an Issue' (spec section 2 "Other interface elements", section 4 "Feedback form"),
 * reachable from the profile menu, which every layout has (the chat sidebar for staff, the app sidebar for admins
 * and the superuser). A thin view of the feedback machine. Its code loads when a person first opens it: the
 * profile menu is on every signed-in screen, and the sign-in route's JavaScript stays small.
 */
const machine = feedbackMachine.provide({ actors: defineFeedbackActors({ api: { submitFeedback } }) });


const LEVEL_LABELS: Record<FeedbackLevel, string> = {
  POOR: 'Poor',
  BELOW_AVERAGE: 'Below average',
  AVERAGE: 'Average',
  GOOD: 'Good',
  EXCELLENT: 'Excellent',
};
const levelItems = feedbackLevels.map((id) => ({ id, label: LEVEL_LABELS[id] }));

export interface FeedbackModalProps {
  kind: FeedbackType;
  /** The form closed (cancelled, or sent): the menu unmounts it. */
  onClose(): void;
}

/** The form of one opening: its machine starts with the chosen kind; its toasts are shown. */
export default function FeedbackModal({ kind, onClose }: FeedbackModalProps) {
  const feedback = useActorRef(machine);
  useNoticeToasts(feedback);
  useEffect(() => {
    const subs = [
      feedback.subscribe((s) => {
        if (s.matches('closed')) onClose();
      }),
    ];
    feedback.send({ type: 'feedback.open', kind });
    return () => subs.forEach((s) => s.unsubscribe());
  }, [feedback, kind, onClose]);

  const view = useSelector(
    feedback,
    (s) => ({
      open: !s.matches('closed'),
      busy: s.hasTag('busy'),
      type: s.context.type,
      level: s.context.level,
      description: s.context.description,
      descriptionError: s.context.descriptionError,
    }),
    shallowEqual,
  );
  const isReport = view.type === 'report';
  return (
    <Modal
      isOpen={view.open}
      onOpenChange={(open) => !open && feedback.send({ type: 'feedback.close' })}
      isDismissable={!view.busy}
      title={isReport ? 'Report an Issue' : 'Submit Feedback'}
      footer={
        <>
          <Button variant="secondary" isDisabled={view.busy} onPress={() => feedback.send({ type: 'feedback.close' })}>
            Cancel
          </Button>
          <Button variant="primary" isPending={view.busy} onPress={() => feedback.send({ type: 'feedback.submit' })}>
            Submit
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          feedback.send({ type: 'feedback.submit' });
        }}
      >
        {/* A report has no rating: it is hidden, and sent as null. */}
        {!isReport && (
          <Select
            label="Rating"
            isRequired
            items={levelItems}
            selectedKey={view.level}
            onSelectionChange={(key) => key && feedback.send({ type: 'field.level', level: key as FeedbackLevel })}
          />
        )}
        <TextArea
          label={isReport ? 'What went wrong?' : 'Tell us more'}
          value={view.description}
          onChange={(text) => feedback.send({ type: 'field.description', text })}
          errorMessage={view.descriptionError ?? undefined}
          rows={5}
        />
      </form>
    </Modal>
  );
}
