import { setTimeout as sleep } from 'node:timers/promises';
import { readPassages, type PromptPassage } from './retrieval-prompt';
import { turnText, type ChatChunk, type ChatModel, type ChatRequest, type ModelSource } from './types';

export const OFFLINE_SOURCE: ModelSource = { provider: 'offline', model: 'tanya-offline-demo' };

const QUOTE_MAX_CHARS = 200;
/** Passages quoted from the documents (the top ones), and how much of each. */
const PASSAGES_QUOTED = 3;
const PASSAGE_QUOTE_MAX_CHARS = 300;

/**
 * The reply of the offline demo responder to `question`: deterministic, clearly labelled, and showing the
 * markdown the chat renders (a heading, nested lists, a table, links, a long address, a code block), so a fresh
 * install and the tests run end to end, and a browser test can check how replies are styled. With passages
 * retrieved from the conversation's documents it quotes the top ones and cites them as a model would ([1], [2]),
 * so retrieval is visible without a model.
 */
export function offlineReply(question: string, passages: readonly PromptPassage[] = []): string {
  const quoted = passages.slice(0, PASSAGES_QUOTED).flatMap((p) => [`> ${quote(p.text, PASSAGE_QUOTE_MAX_CHARS)} [${p.n}]`, '']);
  return [
    "**This is Tanya's offline demo responder.** No AI model is configured on this server, so this is not a real answer.",
    '',
    'You asked:',
    '',
    `> ${quote(question)}`,
    '',
    ...(quoted.length > 0 ? ['The attached documents hold these passages about it:', '', ...quoted] : []),
    '## What answers look like',
    '',
    'Once a model is connected, answers stream in here and can hold:',
    '',
    '- lists, also nested:',
    '  1. **bold** and *italic* text, `code` and [links](https://platform.openai.com/docs/models),',
    '  2. tables and code blocks.',
    '',
    '| Variable | Example |',
    '| --- | --- |',
    '| `LLM_MODEL` | `gpt-4o-mini` |',
    '',
    'Any API like https://platform.openai.com/docs/api-reference/chat/create works (OpenAI, Azure OpenAI, Ollama, vLLM, LiteLLM). An administrator sets these variables and restarts Tanya:',
    '',
    '```bash',
    '# in the server\'s environment',
    'LLM_BASE_URL=https://api.openai.com/v1',
    'LLM_API_KEY=sk-...',
    'LLM_MODEL=gpt-4o-mini',
    '```',
  ].join('\n');
}

/**
 * One line, shortened, with markdown and directive syntax escaped: the question is the user's text and must
 * not turn into markers (`::image{...}`) or structure inside the assistant's markdown.
 */
function quote(question: string, maxChars = QUOTE_MAX_CHARS): string {
  const line = question.replace(/\s+/g, ' ').trim();
  const short = line.length > maxChars ? `${line.slice(0, maxChars - 1).trimEnd()}…` : line;
  return short.replace(/[\\`*_{}[\]()#+\-.!:<>|~]/g, (c) => `\\${c}`);
}

export interface OfflineModelOptions {
  /** Pause between deltas, so the demo streams visibly (OFFLINE_TOKEN_DELAY_MS). */
  tokenDelayMs: number;
  /** Words per delta (OFFLINE_WORDS_PER_DELTA, default 1). */
  wordsPerDelta?: number;
}

export function createOfflineModel(opts: OfflineModelOptions): ChatModel {
  return {
    source: OFFLINE_SOURCE,
    offline: true,
    async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
      const lastQuestion = [...request.messages].reverse().find((m) => m.role === 'user');
      const question = lastQuestion ? turnText(lastQuestion) : '';
      const systemTurn = request.messages.find((m) => m.role === 'system');
      const system = systemTurn ? turnText(systemTurn) : '';
      // Each piece is a word with the whitespace after it (or `wordsPerDelta` of them), so the pieces join back to the
      // exact reply.
      const words = offlineReply(question, readPassages(system)).split(/(?<=\s)(?=\S)/);
      const perDelta = opts.wordsPerDelta ?? 1;
      const deltas = Array.from({ length: Math.ceil(words.length / perDelta) }, (_, i) => words.slice(i * perDelta, (i + 1) * perDelta).join(''));
      for (const [i, text] of deltas.entries()) {
        // No signal passed to the pause: every reply listens to the app's one closing signal, and adding and
        // removing a listener on it per word costs time in proportion to the replies in progress. A closing
        // app waits at most one pause longer instead.
        if (i > 0 && opts.tokenDelayMs > 0) await sleep(opts.tokenDelayMs);
        request.signal?.throwIfAborted();
        yield { type: 'delta', text };
      }
      // No usage: the caller counts tokens itself, as for providers that report none.
      yield { type: 'finish', finishReason: 'stop', usage: null, source: OFFLINE_SOURCE };
    },
  };
}
