import type { ReasoningEffort } from '../../contract/chat';

/** A part of a turn that carries an image (OpenAI's chat format): a data: URL of the stored bytes. */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}
export type ContentPart = { type: 'text'; text: string } | ImagePart;

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  /** Text, or (a question with images, for a model that takes them) text and image parts. */
  content: string | ContentPart[];
}

/** A turn's text: the text parts of one with images. */
export function turnText(turn: ChatTurn): string {
  if (typeof turn.content === 'string') return turn.content;
  return turn.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** How many image parts a turn carries. */
export function turnImages(turn: ChatTurn): number {
  return typeof turn.content === 'string' ? 0 : turn.content.filter((part) => part.type === 'image_url').length;
}

export interface ChatRequest {
  messages: ChatTurn[];
  reasoningEffort?: ReasoningEffort;
  /** Upper bound on the reply's tokens; undefined: the provider's default. */
  maxTokens?: number;
  /** Aborting ends the call and makes the stream throw. */
  signal?: AbortSignal;
  /**
   * Called once the request has been handed to its connection (a kept-alive one writes it at once), maybe again
   * for a retry or a backup: synchronous work after that (saving the question) no longer holds it up. A model that
   * sends nothing (the offline responder) never calls it.
   */
  onSent?: () => void;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Which endpoint and model actually answered (after a failover, the backup). */
export interface ModelSource {
  provider: string;
  model: string;
}

/** 'length': the reply hit the token limit; 'filtered': the provider's content filter stopped it. */
export type FinishReason = 'stop' | 'length' | 'filtered';

export type ChatChunk =
  | { type: 'delta'; text: string }
  /** Always last on success. usage is null when the provider reported none (then it is counted locally). */
  | { type: 'finish'; finishReason: FinishReason; usage: TokenUsage | null; source: ModelSource };

export interface ChatModel {
  /** The model normally answering; a finish chunk names the one that really did. */
  readonly source: ModelSource;
  /** True for the built-in demo responder: there is no model to ask for a title. */
  readonly offline: boolean;
  /** Streams non-empty text deltas, then one finish chunk. A provider failure throws an LlmCallError. */
  stream(request: ChatRequest): AsyncIterable<ChatChunk>;
}

/** A provider call that failed; carries which one (for the usage ledger) but never the request. */
export class LlmCallError extends Error {
  override name = 'LlmCallError';
  constructor(
    readonly source: ModelSource,
    message: string,
    /** HTTP status from the provider, when it answered with one. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** What may be logged about a failure: no prompt, no reply text, no headers (they may hold keys). */
export function describeError(err: unknown): { name: string; message: string; status?: number; provider?: string; model?: string } {
  if (err instanceof LlmCallError) {
    return { name: err.name, message: err.message.slice(0, 300), status: err.status, ...err.source };
  }
  if (err instanceof Error) return { name: err.name, message: err.message.slice(0, 300) };
  return { name: 'unknown', message: 'non-Error thrown' };
}

/** The reply's whole text (no streaming needed, e.g. for titles) with the finish chunk. */
export async function collectReply(
  model: ChatModel,
  request: ChatRequest,
): Promise<{ text: string; finish: Extract<ChatChunk, { type: 'finish' }> }> {
  let text = '';
  for await (const chunk of model.stream(request)) {
    if (chunk.type === 'delta') text += chunk.text;
    else return { text, finish: chunk };
  }
  throw new LlmCallError(model.source, 'the stream ended without a finish');
}
