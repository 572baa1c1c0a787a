import type { ReasoningEffort } from '../../../contract/chat';
import type { AppContext } from '../../context';
import type { ChatChunk, ChatTurn } from '../../llm/types';

/**
 * A model call under way: its request went out when it was made (not when the reply is first read), so what a
 * send still has to do (saving the question, opening the stream) overlaps the model's time to first token.
 */
export interface ModelCall {
  prompt: ChatTurn[];
  /** performance.now() when the call was made. */
  startedAt: number;
  /**
   * Resolves once the request has been handed to its connection (ChatRequest.onSent), or the call failed first.
   * Unset: a call that sends nothing the caller could hold up.
   */
  sent?: Promise<void>;
  /** The first chunk (or the failure); read the rest from `chunks`. Never rejects unhandled. */
  first: Promise<IteratorResult<ChatChunk>>;
  chunks: AsyncIterator<ChatChunk>;
  /** Ends the call (the send was refused after all; release() is then not needed); its chunks then throw. */
  cancel(): void;
  /** To be called once the call is over: it no longer listens for the app closing. */
  release(): void;
}

/**
 * Calls in progress per closing signal: one listener on the app's signal ends them all, instead of one listener
 * per call (adding and removing those costs time in proportion to the calls in progress).
 */
const inProgress = new WeakMap<AbortSignal, Set<AbortController>>();

function linkedTo(closing: AbortSignal): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (closing.aborted) {
    controller.abort(closing.reason);
    return { controller, unlink: () => undefined };
  }
  let calls = inProgress.get(closing);
  if (!calls) {
    const all = new Set<AbortController>();
    closing.addEventListener('abort', () => {
      for (const call of all) call.abort(closing.reason);
    }, { once: true });
    inProgress.set(closing, all);
    calls = all;
  }
  calls.add(controller);
  return { controller, unlink: () => calls.delete(controller) };
}

/** Asks the model now: the first chunk is requested at once, which sends the request. */
export function callModel(ctx: AppContext, prompt: ChatTurn[], reasoningEffort: ReasoningEffort): ModelCall {
  const { controller, unlink } = linkedTo(ctx.closing);
  const startedAt = performance.now();
  let onSent!: () => void;
  const sent = new Promise<void>((resolve) => (onSent = resolve));
  const stream = ctx.llm.stream({ messages: prompt, reasoningEffort, maxTokens: ctx.config.llm.maxTokens, signal: controller.signal, onSent });
  const chunks = stream[Symbol.asyncIterator]();
  const first = chunks.next();
  // Read by the reply's writer; a send refused before that cancels the call and nobody reads it.
  first.then(onSent, onSent);
  return { prompt, startedAt, sent: ctx.llm.offline ? undefined : sent, first, chunks, cancel: () => {
      controller.abort();
      unlink();
    },
    release: unlink,
  };
}
