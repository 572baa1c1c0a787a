import type { AppContext } from '../../context';
import type { UserRecord } from '../../db/repositories/users';
import type { ImagePart } from '../../llm/types';
import { webBrowsingSource } from './tools/web-browsing';
import type { ExchangePlan, SendMessage } from './exchange';
import { retrievalSource } from './retrieval';

/**
 * What a tool or the conversation's documents add to one reply. Gathered before the model is called
 * (gatherReplyContext), so the model sees it in its prompt and the reader sees where it came from.
 */
export interface ReplyContext {
  /** Extra parts of the system prompt (retrieved passages with their names and places, web sources). */
  prompt: string[];
  /** Reply text written before the model's own (e.g. a tools marker naming the pages read). */
  before: string;
  /** Reply text written after the model's own, when it finished (e.g. document markers citing the sources). */
  after: string;
  /** Images that go with the question (the conversation's, when the model takes images). */
  images: ImagePart[];
}

/**
 * One contributor (retrieval, web browsing); returns undefined to add nothing. Must not throw for a user's input.
 * `signal`: the app closing, or the person stopping the reply while it is gathered (then nothing more is fetched).
 */
export type ReplyContextSource = (
  ctx: AppContext,
  user: UserRecord,
  plan: ExchangePlan,
  request: SendMessage,
  signal: AbortSignal,
) => Promise<Partial<ReplyContext> | undefined>;

export const EMPTY_REPLY_CONTEXT: ReplyContext = { prompt: [], before: '', after: '', images: [] };

/** In order; their prompt parts join in this order, their before/after texts too. Filled by issue 9's pieces. */
// The documents' passages first: the offline demo responder reads the first documents block of the prompt.
const SOURCES: ReplyContextSource[] = [retrievalSource, webBrowsingSource];

/** Every source's part of this reply, joined. Sources run in parallel: each costs its own wait at most once. */
export async function gatherReplyContext(
  ctx: AppContext,
  user: UserRecord,
  plan: ExchangePlan,
  request: SendMessage,
  signal: AbortSignal = ctx.closing,
): Promise<ReplyContext> {
  const parts = (await Promise.all(SOURCES.map((source) => source(ctx, user, plan, request, signal)))).filter((p) => p !== undefined);
  const joined = (texts: (string | undefined)[]) => texts.filter((t): t is string => !!t).join('\n\n');
  return {
    prompt: parts.flatMap((p) => p.prompt ?? []),
    before: joined(parts.map((p) => p.before)),
    after: joined(parts.map((p) => p.after)),
    images: parts.flatMap((p) => p.images ?? []),
  };
}
