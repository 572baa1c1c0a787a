/** The feedback form's values, limits and texts, without zod: the feedback machine (machines/) imports them. */
import { groupedNumber } from './grouped-number';

export const feedbackTypes = ['feedback', 'report'] as const;
export type FeedbackType = (typeof feedbackTypes)[number];
export const feedbackLevels = ['POOR', 'BELOW_AVERAGE', 'AVERAGE', 'GOOD', 'EXCELLENT'] as const;
export type FeedbackLevel = (typeof feedbackLevels)[number];

export const FEEDBACK_DESCRIPTION_MAX_LENGTH = 5_000;
export const RATING_REQUIRED = 'Rating is required';
export const DESCRIPTION_TOO_LONG = `Description cannot be more than ${groupedNumber(FEEDBACK_DESCRIPTION_MAX_LENGTH)} characters`;
/** Spec section 8: what the SPA shows after sending. */
export const FEEDBACK_RECEIVED = 'Your submission has been received. Thank you!';
/** 429 past FEEDBACK_RATE_LIMIT_PER_USER, given the wait ("45 minutes"). */
export const tooManyFeedback = (wait: string) => `Too many feedback submissions. Please try again in ${wait}.`;
