import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ConversationList, type ConversationMessages } from '../../contract/chat';
import { errorMarker } from '../../shared/markers';
import { LLM_FAILED, MAX_TOKENS_REACHED } from '../../server/services/chat/chat-stream';
import { tokenCountRemembered } from '../../server/services/chat/usage';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { DEFAULT_FAKE_REPLY, isTitleRequest, startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from './helpers/fake-openai';
import { dbKind } from './helpers/test-app';

const PRIMARY_KEY = 'sk-test-primary-0123456789';
const BACKUP_KEY = 'sk-test-backup-0123456789';
const FIRST_TOKEN_TIMEOUT_MS = 400;

describe(`replies from an OpenAI-compatible provider (${dbKind})`, () => {
  let s: ChatServer;
  let primary: FakeOpenAi;
  let backup: FakeOpenAi;
  const logLines: string[] = [];

  beforeAll(async () => {
    primary = await startFakeOpenAi();
    backup = await startFakeOpenAi();
    s = await startChatServer({
      env: {
        LLM_BASE_URL: primary.baseUrl,
        LLM_API_KEY: PRIMARY_KEY,
        LLM_MODEL: 'gpt-4o-mini',
        LLM_BACKUP_BASE_URL: backup.baseUrl,
        LLM_BACKUP_API_KEY: BACKUP_KEY,
        LLM_BACKUP_MODEL: 'backup-model',
        LLM_FIRST_TOKEN_TIMEOUT_MS: String(FIRST_TOKEN_TIMEOUT_MS),
        LLM_PRICES: JSON.stringify({ 'backup-model': { prompt: 1, completion: 2 } }),
      },
      logger: { level: 'debug', stream: { write: (line: string) => logLines.push(line) } },
    });
  });
  afterEach(() => {
    primary.respond(() => ({ kind: 'reply', chunks: DEFAULT_FAKE_REPLY }));
    backup.respond(() => ({ kind: 'reply', chunks: DEFAULT_FAKE_REPLY }));
  });
  afterAll(async () => {
    await s?.close();
    await primary?.close();
    await backup?.close();
  });

  /** The reply requests (not title requests) a fake received for this question. */
  const repliesTo = (fake: FakeOpenAi, question: string): RecordedRequest[] =>
    fake.requests.filter((r) => !isTitleRequest(r) && r.body.messages.at(-1)?.content === question);
  const savedReply = async (conversationId: string) => {
    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`);
    return res.body.data.messages.at(-1)!;
  };
  const usageOf = (messageId: string, purpose: 'reply' | 'title' = 'reply') =>
    s.db.selectFrom('usage_logs').selectAll().where('message_id', '=', messageId).where('purpose', '=', purpose).execute();

  it('counts an exchange into the history as soon as its reply ends, so the next question does not wait for that', async () => {
    const id = randomUUID();
    const question = `How often should the signing keys rotate? (${id})`;
    primary.respond(() => ({ kind: 'reply', chunks: ['Every', ' year', ` (${id}).`], usage: { prompt_tokens: 50, completion_tokens: 5 } }));
    // Both counts come with the provider's usage, so nothing on the way to `done` tokenizes these texts.
    const first = await s.ask({ conversation_id: null, message: question });
    expect(first.text).toBe(`Every year (${id}).`);
    expect(tokenCountRemembered(question)).toBe(true);
    expect(tokenCountRemembered(`Every year (${id}).`)).toBe(true);
  });

  it('streams the model reply, sends the system prompt and history, and logs usage with its cost', async () => {
    primary.respond(() => ({ kind: 'reply', chunks: ['Zero', ' trust', ' means', '...'], usage: { prompt_tokens: 1200, completion_tokens: 300 } }));
    const first = await s.ask({ conversation_id: null, message: 'What is zero trust?' });
    expect(first.text).toBe('Zero trust means...');
    expect(first.deltas).toEqual(['Zero', ' trust', ' means', '...']);
    expect(first.errors).toEqual([]);
    expect(first.done.usage).toEqual({ prompt_tokens: 1200, completion_tokens: 300 });
    expect(await savedReply(first.control.conversation_id)).toMatchObject({ content: 'Zero trust means...', status: 'complete' });

    const [request] = repliesTo(primary, 'What is zero trust?');
    expect(request.authorization).toBe(`Bearer ${PRIMARY_KEY}`);
    expect(request.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(request.body.reasoning_effort).toBeUndefined();
    const system = request.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('Tanya');
    expect(system.content).toContain('Nur User');
    expect(system.content).toContain(String(new Date().getUTCFullYear()));
    expect(request.body.messages.slice(1)).toEqual([{ role: 'user', content: 'What is zero trust?' }]);
    expect(repliesTo(backup, 'What is zero trust?')).toEqual([]);

    const user = await s.db.selectFrom('users').selectAll().where('email', '=', 'user@demo.local').executeTakeFirstOrThrow();
    const [row] = await usageOf(first.control.message_id);
    expect(row).toMatchObject({
      user_id: user.id,
      client_id: user.client_id,
      department_id: user.department_id,
      unit_id: user.unit_id,
      conversation_id: first.control.conversation_id,
      provider: new URL(primary.baseUrl).host,
      model: 'gpt-4o-mini',
      prompt_tokens: 1200,
      completion_tokens: 300,
    });
    expect(row.cost_usd).toBeCloseTo((1200 * 0.15 + 300 * 0.6) / 1e6, 12);
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);

    // The next question carries the earlier exchange.
    await s.ask({ conversation_id: first.control.conversation_id, message: 'And in practice?' });
    const [next] = repliesTo(primary, 'And in practice?');
    expect(next.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'What is zero trust?' },
      { role: 'assistant', content: 'Zero trust means...' },
      { role: 'user', content: 'And in practice?' },
    ]);
  });

  it('counts tokens itself when the provider reports no usage', async () => {
    primary.respond(() => ({ kind: 'reply', chunks: ['Four', ' words', ' of', ' reply'], usage: null }));
    const reply = await s.ask({ conversation_id: null, message: 'Count for me' });
    expect(reply.done.usage.completion_tokens).toBeGreaterThanOrEqual(4);
    expect(reply.done.usage.prompt_tokens).toBeGreaterThan(10);
    const [row] = await usageOf(reply.control.message_id);
    expect(row).toMatchObject(reply.done.usage);
    expect(row.cost_usd).toBeGreaterThan(0);
  });

  it('lets the backup answer when the primary fails', async () => {
    primary.respond(() => ({ kind: 'http-error', status: 500 }));
    backup.respond(() => ({ kind: 'reply', chunks: ['Backup', ' here.'], usage: { prompt_tokens: 100, completion_tokens: 50 } }));
    const reply = await s.ask({ conversation_id: null, message: 'Primary is down' });
    expect(reply.text).toBe('Backup here.');
    expect(reply.errors).toEqual([]);
    expect(repliesTo(primary, 'Primary is down').length).toBeGreaterThanOrEqual(1);
    const [request] = repliesTo(backup, 'Primary is down');
    expect(request.authorization).toBe(`Bearer ${BACKUP_KEY}`);
    expect(request.body.model).toBe('backup-model');
    expect(await savedReply(reply.control.conversation_id)).toMatchObject({ content: 'Backup here.', status: 'complete' });
    const [row] = await usageOf(reply.control.message_id);
    expect(row).toMatchObject({ provider: new URL(backup.baseUrl).host, model: 'backup-model', prompt_tokens: 100, completion_tokens: 50 });
    expect(row.cost_usd).toBeCloseTo((100 * 1 + 50 * 2) / 1e6, 12);
  });

  it('lets the backup answer when the primary sends no first token in time', async () => {
    primary.respond(() => ({ kind: 'hang' }));
    backup.respond(() => ({ kind: 'reply', chunks: ['Sorry', ' for', ' the', ' wait.'] }));
    const started = Date.now();
    const reply = await s.ask({ conversation_id: null, message: 'Primary is slow' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(FIRST_TOKEN_TIMEOUT_MS - 20);
    expect(reply.text).toBe('Sorry for the wait.');
    expect(reply.errors).toEqual([]);
    expect(repliesTo(primary, 'Primary is slow')).toHaveLength(1);
    expect(repliesTo(backup, 'Primary is slow')).toHaveLength(1);
  });

  it('does not switch models after the first token: a mid-stream failure ends with the llm marker and an error event', async () => {
    primary.respond(() => ({ kind: 'error-mid-stream', chunks: ['Half', ' an'] }));
    const reply = await s.ask({ conversation_id: null, message: 'Break halfway' });
    const expected = `Half an\n\n${errorMarker('llm', LLM_FAILED)}`;
    expect(reply.text).toBe(expected);
    expect(reply.errors).toEqual([{ type: 'llm', message: LLM_FAILED }]);
    expect(reply.order.slice(-2)).toEqual(['error', 'done']);
    expect(repliesTo(backup, 'Break halfway')).toEqual([]);
    expect(await savedReply(reply.control.conversation_id)).toMatchObject({ content: expected, status: 'error' });
  });

  it('reports an llm error when the backup fails too, and the conversation stays usable', async () => {
    primary.respond(() => ({ kind: 'http-error', status: 503 }));
    backup.respond(() => ({ kind: 'http-error', status: 500 }));
    const reply = await s.ask({ conversation_id: null, message: 'Everything is down' });
    expect(reply.text).toBe(errorMarker('llm', LLM_FAILED));
    expect(reply.errors).toEqual([{ type: 'llm', message: LLM_FAILED }]);
    expect(reply.done.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
    expect(await savedReply(reply.control.conversation_id)).toMatchObject({ status: 'error' });

    primary.respond(() => ({ kind: 'reply', chunks: ['Back', ' again.'] }));
    const retry = await s.ask({ conversation_id: reply.control.conversation_id, message: 'Try again' });
    expect(retry.text).toBe('Back again.');
    // The failed reply is not sent as history.
    expect(repliesTo(primary, 'Try again')[0].body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Everything is down' },
      { role: 'user', content: 'Try again' },
    ]);
  });

  it('appends the max-tokens marker when the reply hits the token limit, and ends normally', async () => {
    primary.respond(() => ({ kind: 'reply', chunks: ['A very long'], finishReason: 'length' }));
    const reply = await s.ask({ conversation_id: null, message: 'Write a novel' });
    const expected = `A very long\n\n${errorMarker('max-tokens', MAX_TOKENS_REACHED)}`;
    expect(reply.text).toBe(expected);
    expect(reply.errors).toEqual([]);
    expect(await savedReply(reply.control.conversation_id)).toMatchObject({ content: expected, status: 'complete' });
  });

  it('names the conversation with the model after the first exchange, and logs that call', async () => {
    primary.respond((r) =>
      isTitleRequest(r)
        ? { kind: 'reply', chunks: ['"Kubernetes', ' Rollout', ' Plan."'], usage: { prompt_tokens: 80, completion_tokens: 6 } }
        : { kind: 'reply', chunks: ['Use', ' rolling', ' updates.'] },
    );
    const reply = await s.ask({ conversation_id: null, message: 'How should we roll out the new Kubernetes cluster?' });
    const title = await eventually(async () => {
      const list = await s.api<ConversationList>('GET', '/chat/conversations', { query: { page_size: 100 } });
      const found = list.body.data.conversations.find((c) => c.id === reply.control.conversation_id);
      return found && found.title !== 'New Conversation' && found.title;
    });
    expect(title).toBe('Kubernetes Rollout Plan');
    const titleRequest = primary.requests.find((r) => isTitleRequest(r) && r.body.messages[1].content.includes('new Kubernetes cluster'));
    expect(titleRequest!.body.messages[1].content).toContain('Use rolling updates.');
    const [row] = await eventually(async () => {
      const rows = await usageOf(reply.control.message_id, 'title');
      return rows.length > 0 && rows;
    });
    expect(row).toMatchObject({ conversation_id: reply.control.conversation_id, model: 'gpt-4o-mini', prompt_tokens: 80, completion_tokens: 6 });

    // Only after the first exchange: a second one does not ask again.
    const asked = primary.requests.filter(isTitleRequest).length;
    await s.ask({ conversation_id: reply.control.conversation_id, message: 'And the rollback?' });
    await s.app.ready();
    await new Promise((r) => setTimeout(r, 100));
    expect(primary.requests.filter(isTitleRequest)).toHaveLength(asked);
  });

  const titleOf = async (conversationId: string) => {
    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`);
    return res.body.data.conversation.title;
  };

  it('names the conversation after the question when making a title fails', async () => {
    primary.respond((r) => (isTitleRequest(r) ? { kind: 'http-error', status: 500 } : { kind: 'reply', chunks: ['Fine.'] }));
    backup.respond((r) => (isTitleRequest(r) ? { kind: 'http-error', status: 500 } : { kind: 'reply', chunks: ['Fine.'] }));
    const reply = await s.ask({ conversation_id: null, message: 'Untitled please' });
    expect(await eventually(async () => (await titleOf(reply.control.conversation_id)) !== 'New Conversation' && titleOf(reply.control.conversation_id))).toBe(
      'Untitled please',
    );
    expect(logLines.some((l) => l.includes('making a title failed'))).toBe(true);
  });

  it('names a conversation whose first reply failed after the question, without asking the model again', async () => {
    const question = `Which holidays are paid ${randomUUID()}`;
    primary.respond(() => ({ kind: 'http-error', status: 503 }));
    backup.respond(() => ({ kind: 'http-error', status: 500 }));
    const reply = await s.ask({ conversation_id: null, message: question });
    expect(reply.errors).not.toEqual([]);
    expect(await eventually(async () => (await titleOf(reply.control.conversation_id)) !== 'New Conversation' && titleOf(reply.control.conversation_id))).toBe(
      question,
    );
    expect(primary.requests.filter((r) => isTitleRequest(r) && r.body.messages[1].content.includes(question))).toEqual([]);
  });

  it('never logs API keys or message content', () => {
    const log = logLines.join('\n');
    expect(log).toContain('the backup answers');
    for (const secret of [PRIMARY_KEY, BACKUP_KEY, 'zero trust', 'Primary is down', 'Half an', 'Kubernetes', 'Rollout']) {
      expect(log.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });

  it('stores a reply whose image or document marker points at another origin as a plain link', async () => {
    // A prompt injection can make a model write a tracking pixel or pass a stranger's file off as a download.
    primary.respond(() => ({
      kind: 'reply',
      chunks: ['See ', '![chart](https://evil.example/pixel.png)', ' and ', '\n\n::document{url="https://evil.example/r.pdf" name="report.pdf"}'],
    }));
    const reply = await s.ask({ conversation_id: null, message: 'Show me the chart' });
    const saved = await savedReply(reply.control.conversation_id);
    expect(saved.content).not.toContain('![');
    expect(saved.content).not.toContain(':document');
    expect(saved.content).toContain('https://evil.example/pixel.png');
    expect(saved.content).toContain('https://evil.example/r.pdf');
  });
});

describe(`model options (${dbKind})`, () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());

  it('passes reasoning_effort and max_completion_tokens to reasoning models', async () => {
    const s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'o4-mini', LLM_MAX_TOKENS: '500' } });
    try {
      await s.ask({ conversation_id: null, message: 'Think hard', reasoning_effort: 'medium' });
      await s.ask({ conversation_id: null, message: 'Think a little' });
      const [hard] = fake.requests.filter((r) => r.body.messages.at(-1)?.content === 'Think hard');
      const [little] = fake.requests.filter((r) => r.body.messages.at(-1)?.content === 'Think a little');
      expect(hard.body).toMatchObject({ model: 'o4-mini', reasoning_effort: 'medium', max_completion_tokens: 500 });
      expect(hard.body.max_tokens).toBeUndefined();
      expect(little.body.reasoning_effort).toBe('low');
      // No key configured for a self-hosted endpoint: a placeholder, never another endpoint's key.
      expect(hard.authorization).toBe('Bearer not-needed');
    } finally {
      await s.close();
    }
  });

  it('sends neither to other models, and max_tokens as the limit', async () => {
    const s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'llama3.1:8b', LLM_MAX_TOKENS: '200' } });
    try {
      await s.ask({ conversation_id: null, message: 'Plain model', reasoning_effort: 'medium' });
      const [request] = fake.requests.filter((r) => r.body.messages.at(-1)?.content === 'Plain model');
      expect(request.body.reasoning_effort).toBeUndefined();
      expect(request.body.max_tokens).toBe(200);
      expect(request.body.max_completion_tokens).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('sends reasoning_effort to any model with LLM_REASONING=true', async () => {
    const s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'my-reasoner', LLM_REASONING: 'true' } });
    try {
      await s.ask({ conversation_id: null, message: 'Forced reasoning', reasoning_effort: 'medium' });
      const [request] = fake.requests.filter((r) => r.body.messages.at(-1)?.content === 'Forced reasoning');
      expect(request.body.reasoning_effort).toBe('medium');
    } finally {
      await s.close();
    }
  });
});
