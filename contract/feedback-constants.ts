/** The feedback form's values, limits and texts, without zod: the feedback machine (machines/) imports them. */
import { groupedNumber } from '../shared/grouped-number';

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

/** Thumbs up / down on an assistant's reply (issue 28; not in the spec). */
export const replyRatings = ['up', 'down'] as const;
export type ReplyRating = (typeof replyRatings)[number];
export const RATING_COMMENT_MAX_LENGTH = 1_000;
export const RATING_COMMENT_TOO_LONG = `Comment cannot be more than ${groupedNumber(RATING_COMMENT_MAX_LENGTH)} characters`;
export const RATING_SAVED = 'Thanks for rating this reply';
export const RATING_COMMENT_SAVED = 'Thanks for your comment';
export const RATING_FAILED = 'Failed to save your rating';
export const REPLY_NOT_FOUND = 'Reply not found';

/** The admins' feedback inbox: feedback submissions, issue reports and reply ratings of one organisation. */
export const inboxKinds = ['feedback', 'report', 'rating'] as const;
export type InboxKind = (typeof inboxKinds)[number];
export const INBOX_PAGE_SIZE = 20;
/** The start of a rated reply the inbox shows, in characters. */
export const INBOX_EXCERPT_LENGTH = 240;
export const INBOX_FETCH_FAILED = 'Failed to fetch feedback';
export const OTHER_ORGANISATION_FEEDBACK = "You can only see your own organisation's feedback";
