import { assertEvent, assign, setup } from 'xstate';
import type { FeedbackReceipt, FeedbackRequest } from '../contract/feedback';
import {
  DESCRIPTION_TOO_LONG,
  FEEDBACK_DESCRIPTION_MAX_LENGTH,
  FEEDBACK_RECEIVED,
  type FeedbackLevel,
  type FeedbackType,
} from '../contract/feedback-constants';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report } from './report';
import { serverDetailOf } from './load-failure';

/**
 * The feedback form (spec chat-and-session.md section 2 "Feedback modal", section 4 "Feedback form", section 8
 * Feedback texts): 'Submit Feedback' (type feedback, a rating from POOR to EXCELLENT, AVERAGE by default) or
 * 'Report an Issue' (type report: no rating, level null), each with an optional description.
 *
 * States: `closed`; `editing` (the modal is open; `feedback.open` chooses the type and starts afresh);
 * `submitting` (tag `busy`, invokes `submit`, POST /feedbacks/). Success shows 'Your submission has been received.
 * Thank you!', resets the form and closes; a failure shows the server's sentence, else 'Failed to submit
 * feedback', and keeps what was written. A description over FEEDBACK_DESCRIPTION_MAX_LENGTH is refused here with
 * the server's own sentence, before any call.
 */
export const FEEDBACK_FAILED = 'Failed to submit feedback';
export const DEFAULT_LEVEL: FeedbackLevel = 'AVERAGE';

export interface FeedbackContext {
  type: FeedbackType;
  level: FeedbackLevel;
  description: string;
  /** The description's error, shown under it. */
  descriptionError: string | null;
}

export type FeedbackEvent =
  | { type: 'feedback.open'; kind: FeedbackType }
  | { type: 'feedback.close' }
  | { type: 'field.level'; level: FeedbackLevel }
  | { type: 'field.description'; text: string }
  | { type: 'feedback.submit' };

const fresh = (type: FeedbackType): FeedbackContext => ({ type, level: DEFAULT_LEVEL, description: '', descriptionError: null });

/** What is sent: a report never carries a rating; a blank description is none. */
export function feedbackPayload(context: FeedbackContext): FeedbackRequest {
  const description = context.description.trim();
  return { type: context.type, level: context.type === 'report' ? null : context.level, description: description || null };
}

export const feedbackMachine = setup({
  types: {
    context: {} as FeedbackContext,
    events: {} as FeedbackEvent,
    emitted: {} as Notice,
    tags: {} as 'busy',
  },
  actors: {
    submit: notProvided<FeedbackReceipt, FeedbackRequest>('submit'),
  },
  guards: {
    descriptionFits: ({ context }) => context.description.trim().length <= FEEDBACK_DESCRIPTION_MAX_LENGTH,
  },
  actions: {
    open: assign(({ event }) => {
      assertEvent(event, 'feedback.open');
      return fresh(event.kind);
    }),
    reset: assign(({ context }) => fresh(context.type)),
    reportReceived: report(() => notice('success', FEEDBACK_RECEIVED)),
    reportFailed: report(({ event }: { event: { error?: unknown } }) => notice('error', serverDetailOf(event.error) ?? FEEDBACK_FAILED)),
  },
}).createMachine({
  id: 'feedback',
  context: fresh('feedback'),
  initial: 'closed',
  states: {
    closed: {
      description: 'No feedback form is open.',
      on: { 'feedback.open': { target: 'editing', actions: 'open' } },
    },
    editing: {
      description: 'The feedback or issue form is open: the person picks a rating (feedback) and writes a description.',
      on: {
        'feedback.close': { target: 'closed', actions: 'reset' },
        'field.level': {
          actions: assign(({ event }) => ({ level: event.level })),
        },
        'field.description': {
          actions: assign(({ event }) => ({ description: event.text, descriptionError: null })),
        },
        'feedback.submit': [
          { guard: 'descriptionFits', target: 'submitting' },
          { actions: assign({ descriptionError: DESCRIPTION_TOO_LONG }) },
        ],
      },
    },
    submitting: {
      description: 'The feedback is being sent; the form waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => feedbackPayload(context),
        onDone: { target: 'closed', actions: ['reset', 'reportReceived'] },
        onError: { target: 'editing', actions: 'reportFailed' },
      },
    },
  },
});

export type FeedbackMachine = typeof feedbackMachine;
