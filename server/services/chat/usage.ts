import { countTokens } from 'gpt-tokenizer';
import type { AppContext } from '../../context';
import type { UsageLogsTable } from '../../db/database';
import type { UserRecord } from '../../db/repositories/users';
import { insertUsageLog } from '../../db/repositories/usage-logs';
import { costUsd, priceTable } from '../../llm/prices';
import { turnImages, turnText, type ChatTurn, type ModelSource, type TokenUsage } from '../../llm/types';

/** The chat format's per-message overhead (role and separators), as OpenAI documents it for its models. */
const TOKENS_PER_TURN = 4;

/** Text such as "<|endoftext|>" typed by a user is counted as text, not refused as a special token. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTextTokens(text: string): number {
  return text ? countTokens(text, AS_PLAIN_TEXT) : 0;
}

/**
 * Counts of texts seen lately. Every send counts the conversation's history again, and tokenizing is the
 * slowest step before the model is called (milliseconds for a long history): finished messages never change,
 * so their counts are remembered. Bounded by the characters it holds, oldest forgotten first.
 */
const counted = new Map<string, number>();
const COUNTED_MAX_CHARS = 4_000_000;
let countedChars = 0;

function countTextTokensCached(text: string): number {
  const known = counted.get(text);
  if (known !== undefined) {
    // Most recently used last: eviction takes the oldest first.
    counted.delete(text);
    counted.set(text, known);
    return known;
  }
  const tokens = countTextTokens(text);
  if (text.length <= COUNTED_MAX_CHARS / 4) {
    counted.set(text, tokens);
    countedChars += text.length;
    for (const oldest of counted.keys()) {
      if (countedChars <= COUNTED_MAX_CHARS) break;
      counted.delete(oldest);
      countedChars -= oldest.length;
    }
  }
  return tokens;
}

/** Whether the count of `text` is remembered: a prompt holding it does not tokenize it again. */
export function tokenCountRemembered(text: string): boolean {
  return counted.has(text);
}

/**
 * What one image in a question costs, counted without the provider's figure: OpenAI bills a high-detail image by
 * its 512-pixel tiles (85 + 170 a tile; 765 for a 1024x1024 one). The base64 bytes are never tokenized as text.
 */
export const IMAGE_TOKENS = 765;

export function countTurnTokens(turn: ChatTurn): number {
  if (typeof turn.content === 'string') return countTextTokensCached(turn.content) + TOKENS_PER_TURN;
  return countTextTokensCached(turnText(turn)) + turnImages(turn) * IMAGE_TOKENS + TOKENS_PER_TURN;
}

/** The provider's numbers when it reported them; else counted here (o200k_base: close for most models). */
export function resolveUsage(reported: TokenUsage | null, prompt: ChatTurn[], completion: string): TokenUsage {
  if (reported) return reported;
  return {
    prompt_tokens: prompt.reduce((sum, turn) => sum + countTurnTokens(turn), 0),
    completion_tokens: countTextTokensCached(completion),
  };
}

export interface ModelCall {
  user: UserRecord;
  conversationId: string;
  messageId: string;
  purpose: UsageLogsTable['purpose'];
  source: ModelSource;
  usage: TokenUsage;
  durationMs: number;
}

/** One ledger row per model call, priced with the built-in table plus LLM_PRICES. */
export async function recordModelCall(ctx: AppContext, call: ModelCall): Promise<void> {
  await insertUsageLog(ctx.db, {
    user_id: call.user.id,
    client_id: call.user.client_id,
    department_id: call.user.department_id,
    unit_id: call.user.unit_id,
    conversation_id: call.conversationId,
    message_id: call.messageId,
    purpose: call.purpose,
    provider: call.source.provider,
    model: call.source.model,
    prompt_tokens: call.usage.prompt_tokens,
    completion_tokens: call.usage.completion_tokens,
    cost_usd: costUsd(priceTable(ctx.config.llm.prices), call.source.model, call.usage),
    duration_ms: Math.round(call.durationMs),
  });
}
