import { fromPromise } from 'xstate';
import type { ReplyRatingResult } from '../../../contract/feedback';
import { replyRatingMachine, type SaveRatingRequest } from '../../../machines/reply-rating.machine';
import type { rateReply } from '../../api/feedback';
import { withServerDetail } from '../../lib/load-failure';

export interface ReplyRatingApi {
  rateReply: typeof rateReply;
}

/** The thumbs of one reply with their call: a failure carries the server's sentence when it sent one. */
export function defineReplyRatingMachine({ api }: { api: ReplyRatingApi }) {
  return replyRatingMachine.provide({
    actors: {
      save: fromPromise<ReplyRatingResult, SaveRatingRequest>(({ input }) => withServerDetail(api.rateReply(input.messageId, input.body))),
    },
  });
}
