import { paths } from '../../contract/api-paths';
import type { FeedbackReceipt, FeedbackRequest } from '../../contract/feedback';
import { api } from './http';

export async function submitFeedback(body: FeedbackRequest): Promise<FeedbackReceipt> {
  return (await api.post<FeedbackReceipt>(paths.feedbacks, body)).data;
}
