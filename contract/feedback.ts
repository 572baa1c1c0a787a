import { z } from 'zod';
import { pageFields } from './envelope';
import { choiceField, idField, pageField, pageSizeField, requestBody } from './fields';
import {
  DESCRIPTION_TOO_LONG,
  FEEDBACK_DESCRIPTION_MAX_LENGTH,
  feedbackLevels,
  feedbackTypes,
  INBOX_PAGE_SIZE,
  inboxKinds,
  RATING_COMMENT_MAX_LENGTH,
  RATING_COMMENT_TOO_LONG,
  RATING_REQUIRED,
  replyRatings,
} from './feedback-constants';


export const feedbackRequest = requestBody({
  type: choiceField('type', feedbackTypes),
  level: choiceField('level', feedbackLevels)
    .nullable()
    .default(null)
    .describe('Required for feedback. A report has no rating: any level sent with one is stored as null.'),
  description: z
    .string({ error: 'description must be text' })
    .trim()
    .max(FEEDBACK_DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG)
    .nullable()
    .default(null),
}).refine((body) => body.type !== 'feedback' || body.level !== null, { error: RATING_REQUIRED, path: ['level'] });
export type FeedbackRequest = z.input<typeof feedbackRequest>;

export const feedbackReceipt = z.object({ id: z.string() });
export type FeedbackReceipt = z.infer<typeof feedbackReceipt>;

/** PUT /chat/messages/{id}/rating: null clears the person's rating. A comment goes with a rating only. */
export const replyRatingRequest = requestBody({
  rating: choiceField('rating', replyRatings).nullable(),
  comment: z
    .string({ error: 'comment must be text' })
    .trim()
    .max(RATING_COMMENT_MAX_LENGTH, RATING_COMMENT_TOO_LONG)
    .nullable()
    .default(null)
    .describe('Optional, with a rating (a thumbs down says what went wrong); blank is none.'),
});
export type ReplyRatingRequest = z.input<typeof replyRatingRequest>;

export const replyRatingResult = z.object({
  message_id: z.string(),
  rating: z.enum(replyRatings).nullable(),
  comment: z.string().nullable(),
});
export type ReplyRatingResult = z.infer<typeof replyRatingResult>;

/** GET /feedbacks/inbox. */
export const inboxQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(INBOX_PAGE_SIZE),
  kind: choiceField('kind', inboxKinds).optional().describe('Only feedback, only issue reports or only reply ratings; all when absent.'),
  client_id: idField('client_id')
    .optional()
    .describe("Superusers: whose feedback (every organisation's when absent). An admin sees only their own organisation's."),
});
export type InboxQuery = z.input<typeof inboxQuery>;

export const inboxItem = z.object({
  id: z.string(),
  kind: z.enum(inboxKinds),
  created_at: z.string(),
  /** Who sent it. */
  user_name: z.string(),
  user_email: z.string(),
  /** The organisation's name (null for a superuser's own feedback); the superuser's inbox spans organisations. */
  client_name: z.string().nullable(),
  /** Feedback only. */
  level: z.enum(feedbackLevels).nullable(),
  /** Ratings only. */
  rating: z.enum(replyRatings).nullable(),
  /** The feedback's or report's description, or the rating's comment. */
  text: z.string().nullable(),
  /** Ratings only: the start of the rated reply as plain text (at most INBOX_EXCERPT_LENGTH characters, ending in … when cut). */
  reply_excerpt: z.string().nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

export const inboxPage = z.object({ items: z.array(inboxItem), ...pageFields });
export type InboxPage = z.infer<typeof inboxPage>;
