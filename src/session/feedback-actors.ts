import { fromPromise } from 'xstate';
import type { FeedbackReceipt, FeedbackRequest } from '../../contract/feedback';
import type { submitFeedback } from '../api/feedback';
import { withServerDetail } from '../lib/load-failure';

/** The API function the feedback form calls (src/api/feedback.ts; tests pass a fake). */
export interface FeedbackApi {
  submitFeedback: typeof submitFeedback;
}

/** The feedback form's side effect: `feedbackMachine.provide({ actors: defineFeedbackActors({ api }) })`. */
export function defineFeedbackActors({ api }: { api: FeedbackApi }) {
  return {
    // The server's sentence (e.g. a validation message) when it answered; 'Failed to submit feedback' otherwise.
    submit: fromPromise<FeedbackReceipt, FeedbackRequest>(({ input }) => withServerDetail(api.submitFeedback(input))),
  };
}
