import type { FastifyBaseLogger } from 'fastify';
import type { LlmConfig } from '../config';
import { createFailoverModel } from './failover';
import { createOfflineModel } from './offline';
import { createOpenAiCompatibleModel } from './openai-compatible';
import type { ChatModel } from './types';

/** The model that answers chats, from LLM_*: the offline demo responder, one endpoint, or a primary with a backup. */
export function createChatModel(llm: LlmConfig, log: FastifyBaseLogger): ChatModel {
  if (!llm.primary) return createOfflineModel({ tokenDelayMs: llm.offlineTokenDelayMs, wordsPerDelta: llm.offlineWordsPerDelta });
  const primary = createOpenAiCompatibleModel(llm.primary, { reasoning: llm.reasoning });
  // Without a backup there is nothing to fail over to, so a slow first token is waited for (reasoning models
  // may think for minutes) rather than turned into an error.
  if (!llm.backup) return primary;
  const backup = createOpenAiCompatibleModel(llm.backup, { reasoning: llm.reasoning });
  return createFailoverModel(primary, backup, { firstTokenTimeoutMs: llm.firstTokenTimeoutMs, log });
}
