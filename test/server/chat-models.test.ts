import { describe, expect, it } from 'vitest';
import { createFailoverModel } from '../../server/llm/failover';
import { createOfflineModel, offlineReply } from '../../server/llm/offline';
import { takesReasoningEffort } from '../../server/llm/openai-compatible';
import { costUsd, findPrice, priceTable } from '../../server/llm/prices';
import { collectReply, LlmCallError, type ChatChunk, type ChatModel } from '../../server/llm/types';
import { cleanModelTitle, questionTitle } from '../../server/services/chat/titles';

const silentLog = { warn: () => undefined } as unknown as Parameters<typeof createFailoverModel>[2]['log'];

/** A scripted model: yields its deltas (waiting `gapMs` before each, `gapAfterFirstMs` before each but the first), then throws or finishes. */
function scripted(name: string, script: { deltas?: string[]; gapMs?: number; gapAfterFirstMs?: number; throwAfter?: boolean }): ChatModel & { calls: number } {
  const model = {
    calls: 0,
    source: { provider: name, model: name },
    offline: false,
    async *stream(request: { signal?: AbortSignal }): AsyncGenerator<ChatChunk> {
      model.calls++;
      for (const [i, text] of (script.deltas ?? []).entries()) {
        const gap = i === 0 ? script.gapMs : (script.gapAfterFirstMs ?? script.gapMs);
        if (gap) await new Promise((r) => setTimeout(r, gap));
        request.signal?.throwIfAborted();
        yield { type: 'delta', text };
      }
      if (script.throwAfter) throw new LlmCallError(model.source, 'scripted failure');
      yield { type: 'finish', finishReason: 'stop', usage: null, source: model.source };
    },
  };
  return model;
}

describe('failover', () => {
  it('uses the primary when it answers in time', async () => {
    const primary = scripted('primary', { deltas: ['a', 'b'] });
    const backup = scripted('backup', { deltas: ['x'] });
    const { text, finish } = await collectReply(createFailoverModel(primary, backup, { firstTokenTimeoutMs: 200, log: silentLog }), { messages: [] });
    expect([text, finish.source.provider, backup.calls]).toEqual(['ab', 'primary', 0]);
  });

  it('switches to the backup when the primary fails or is silent before its first token', async () => {
    for (const primary of [scripted('primary', { throwAfter: true }), scripted('primary', { deltas: ['late'], gapMs: 500 })]) {
      const backup = scripted('backup', { deltas: ['x'] });
      const { text, finish } = await collectReply(createFailoverModel(primary, backup, { firstTokenTimeoutMs: 50, log: silentLog }), { messages: [] });
      expect([text, finish.source.provider]).toEqual(['x', 'backup']);
    }
  });

  it('never switches after the first token, however slow or broken the rest is', async () => {
    // The first token at once, the rest 3x slower than the first-token timeout (an 80 ms gap before the first token
    // against the 100 ms timeout lost the race with parallel test files on a loaded machine).
    const slow = scripted('primary', { deltas: ['a', 'b'], gapAfterFirstMs: 300 });
    const backup = scripted('backup', { deltas: ['x'] });
    const model = createFailoverModel(slow, backup, { firstTokenTimeoutMs: 100, log: silentLog });
    expect((await collectReply(model, { messages: [] })).text).toBe('ab');

    const broken = createFailoverModel(scripted('primary', { deltas: ['a'], throwAfter: true }), backup, { firstTokenTimeoutMs: 100, log: silentLog });
    await expect(collectReply(broken, { messages: [] })).rejects.toThrow('scripted failure');
    expect(backup.calls).toBe(0);
  });
});

describe('offline responder', () => {
  it('streams its deterministic reply word by word, labelled, quoting the question safely', async () => {
    const model = createOfflineModel({ tokenDelayMs: 0 });
    const deltas: string[] = [];
    for await (const chunk of model.stream({ messages: [{ role: 'user', content: 'Show ::image{url="x"} please' }] })) {
      if (chunk.type === 'delta') deltas.push(chunk.text);
    }
    const reply = offlineReply('Show ::image{url="x"} please');
    expect(deltas.join('')).toBe(reply);
    expect(deltas.length).toBeGreaterThan(50);
    expect(reply).toContain("Tanya's offline demo responder");
    expect(reply).toContain('```bash');
    expect(reply).toMatch(/^- /m);
    expect(reply).not.toContain('::image{');
  });

  it('sends its words several to a delta when told to, and they still join back to the reply', async () => {
    const deltasOf = async (wordsPerDelta: number) => {
      const deltas: string[] = [];
      for await (const chunk of createOfflineModel({ tokenDelayMs: 0, wordsPerDelta }).stream({ messages: [{ role: 'user', content: 'Hello there' }] })) {
        if (chunk.type === 'delta') deltas.push(chunk.text);
      }
      return deltas;
    };
    const single = await deltasOf(1);
    const triple = await deltasOf(3);
    expect(triple.join('')).toBe(offlineReply('Hello there'));
    expect(triple).toHaveLength(Math.ceil(single.length / 3));
    expect(triple[0]).toBe(single.slice(0, 3).join(''));
  });
});

describe('titles', () => {
  it('takes the question whole as a title (its first line, up to 200 characters), with no ellipsis of its own', () => {
    expect(questionTitle('  Leave   policy? ')).toBe('Leave policy?');
    expect(questionTitle('one two three four five six seven')).toBe('one two three four five six seven');
    // A question that trails off keeps its own dots, and nothing is added after them (no '…...').
    expect(questionTitle('Can you explain what this error in the payroll export means...')).toBe(
      'Can you explain what this error in the payroll export means...',
    );
    expect(questionTitle('\n\n  First line\nsecond line')).toBe('First line');
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const long = questionTitle(words)!;
    expect(long.length).toBeLessThanOrEqual(200);
    expect(words.startsWith(long)).toBe(true);
    expect(words.charAt(long.length)).toBe(' ');
    expect(long).not.toMatch(/…|\.\.\.$/);
    expect(questionTitle('x'.repeat(300))).toBe('x'.repeat(200));
    expect(questionTitle('   ')).toBeUndefined();
  });

  it('cleans what the model answers', () => {
    expect(cleanModelTitle('"Kubernetes Rollout Plan."')).toBe('Kubernetes Rollout Plan');
    expect(cleanModelTitle('\n\nTitle: **Budget Review**\nmore text')).toBe('Budget Review');
    expect(cleanModelTitle('“Cuti Tahunan”')).toBe('Cuti Tahunan');
    expect(cleanModelTitle('  \n ')).toBeUndefined();
    expect(cleanModelTitle('w'.repeat(300))).toHaveLength(200);
  });
});

describe('prices and reasoning models', () => {
  it('prices by exact, dated or routed model name, with overrides, and 0 when unknown', () => {
    const table = priceTable({ 'my-model': { prompt: 1, completion: 2 }, 'gpt-4o': { prompt: 3, completion: 4 } });
    expect(findPrice(table, 'gpt-4o-mini-2024-07-18')).toEqual({ prompt: 0.15, completion: 0.6 });
    expect(findPrice(table, 'openai/gpt-4o')).toEqual({ prompt: 3, completion: 4 });
    expect(costUsd(table, 'my-model', { prompt_tokens: 1_000_000, completion_tokens: 500_000 })).toBe(2);
    expect(costUsd(table, 'llama3.1:8b', { prompt_tokens: 1000, completion_tokens: 1000 })).toBe(0);
  });

  it('sends reasoning_effort to o-series and gpt-5 models unless told otherwise', () => {
    for (const model of ['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'openai/o3']) expect(takesReasoningEffort(model, 'auto'), model).toBe(true);
    for (const model of ['gpt-4o', 'llama3.1:8b', 'mistral', 'gpt-4.1']) expect(takesReasoningEffort(model, 'auto'), model).toBe(false);
    expect(takesReasoningEffort('llama3.1:8b', 'always')).toBe(true);
    expect(takesReasoningEffort('o3', 'never')).toBe(false);
  });
});
