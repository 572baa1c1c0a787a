import { pathTo, paths } from '../../contract/api-paths';
import type { FeedbackReceipt, FeedbackRequest, InboxPage, ReplyRatingRequest, ReplyRatingResult } from '../../contract/feedback';
import type { InboxKind } from '../../contract/feedback-constants';
import { api } from './http';

export async function submitFeedback(body: FeedbackRequest): Promise<FeedbackReceipt> {
  return (await api.post<FeedbackReceipt>(paths.feedbacks, body)).data;
}

/** The person's thumbs up or down on a reply, or none (null). */
export async function rateReply(messageId: string, body: ReplyRatingRequest): Promise<ReplyRatingResult> {
  return (await api.put<ReplyRatingResult>(pathTo(paths.messageRating, { id: messageId }), body)).data;
}

/** A page of the admins' feedback inbox, newest first. */
export async function fetchInboxPage(q: { page: number; pageSize: number; kind?: InboxKind }, signal?: AbortSignal): Promise<InboxPage> {
  const query = { page: q.page, page_size: q.pageSize, ...(q.kind ? { kind: q.kind } : {}) };
  return (await api.get<InboxPage>(paths.feedbackInbox, { query, signal })).data;
}
