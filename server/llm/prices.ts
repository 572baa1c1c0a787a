import type { ModelPrice } from '../config';
import type { TokenUsage } from './types';

/**
 * USD per one million prompt / completion tokens, from the providers' public price lists (standard tier).
 * A dated model name (gpt-4o-2024-08-06) or a routed one (openai/gpt-4o) uses the longest matching entry.
 * LLM_PRICES adds or overrides entries; unknown models cost 0 (self-hosted ones usually do).
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { prompt: 1.25, completion: 10 },
  'gpt-5-mini': { prompt: 0.25, completion: 2 },
  'gpt-5-nano': { prompt: 0.05, completion: 0.4 },
  'gpt-4.1': { prompt: 2, completion: 8 },
  'gpt-4.1-mini': { prompt: 0.4, completion: 1.6 },
  'gpt-4.1-nano': { prompt: 0.1, completion: 0.4 },
  'gpt-4o': { prompt: 2.5, completion: 10 },
  'gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
  'gpt-4-turbo': { prompt: 10, completion: 30 },
  'gpt-4': { prompt: 30, completion: 60 },
  'gpt-3.5-turbo': { prompt: 0.5, completion: 1.5 },
  o1: { prompt: 15, completion: 60 },
  'o1-mini': { prompt: 1.1, completion: 4.4 },
  o3: { prompt: 2, completion: 8 },
  'o3-mini': { prompt: 1.1, completion: 4.4 },
  'o4-mini': { prompt: 1.1, completion: 4.4 },
};

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export function priceTable(overrides: Record<string, ModelPrice>): PriceTable {
  return { ...DEFAULT_PRICES, ...overrides };
}

/** The exact name first, then the longest entry the name starts with (after any "provider/" prefix). */
export function findPrice(table: PriceTable, model: string): ModelPrice | undefined {
  if (table[model]) return table[model];
  const bare = model.slice(model.lastIndexOf('/') + 1);
  if (table[bare]) return table[bare];
  let best: string | undefined;
  for (const name of Object.keys(table)) {
    if (bare.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  return best ? table[best] : undefined;
}

export function costUsd(table: PriceTable, model: string, usage: TokenUsage): number {
  const price = findPrice(table, model);
  if (!price) return 0;
  return (usage.prompt_tokens * price.prompt + usage.completion_tokens * price.completion) / 1_000_000;
}
