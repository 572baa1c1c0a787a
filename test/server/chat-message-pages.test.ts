import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationMessages, MESSAGE_CURSOR_INVALID, type ChatMessage, type ConversationMessages } from '../../contract/chat';
import { successEnvelope } from '../../contract/envelope';
import { insertConversation } from '../../server/db/repositories/conversations';
import { contentLength } from '../../server/db/repositories/messages';
import { findUserByEmail } from '../../server/db/repositories/users';
import { MESSAGE_PAGE_MAX_CHARS } from '../../server/services/chat/chat';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

/**
 * GET /chat/conversations/{id}/messages by pages: the latest first, then `before` each page's earlier_cursor.
 * Conversations are written straight into the database (seq 1, 2, 3... a second apart, an hour ago), so a long
 * one takes no model replies to make.
 */
describe(`conversation messages by pages (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  const HOUR_AGO = Date.now() - 3_600_000;

  /** A conversation of `count` messages, user first and alternating; `content(seq)` gives each text. */
  async function seed(count: number, content: (seq: number) => string = (seq) => `message ${seq}`): Promise<string> {
    const user = (await findUserByEmail(s.db, 'user@demo.local'))!;
    // Its answering lease long over: nothing is being answered.
    const lease = new Date(0).toISOString();
    const conversation = await insertConversation(s.db, { user_id: user.id, client_id: user.client_id, title: 'Long', answering_until: lease });
    for (let from = 1; from <= count; from += 10) {
      const rows = [];
      for (let seq = from; seq < from + 10 && seq <= count; seq++) {
        rows.push({
          id: randomUUID(),
          conversation_id: conversation.id,
          user_id: user.id,
          sender: seq % 2 ? ('user' as const) : ('Assistant' as const),
          content: content(seq),
          content_length: contentLength(content(seq)),
          status: 'complete' as const,
          seq,
          created_at: new Date(HOUR_AGO + seq * 1000).toISOString(),
        });
      }
      await s.db.insertInto('messages').values(rows).execute();
    }
    return conversation.id;
  }

  const page = async (id: string, query: { before?: string; limit?: number } = {}) => {
    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages`, { query });
    expect(res.status).toBe(200);
    return successEnvelope(conversationMessages).parse(res.body).data;
  };

  /** Every page from the latest back, as a reader scrolling up gets them. */
  async function walk(id: string, limit?: number, between?: (pagesRead: number) => Promise<void>) {
    const pages: ChatMessage[][] = [];
    let before: string | undefined;
    do {
      const next = await page(id, { before, limit });
      pages.push(next.messages);
      before = next.earlier_cursor ?? undefined;
      await between?.(pages.length);
    } while (before !== undefined);
    return pages;
  }
  const contents = (pages: ChatMessage[][]) => pages.toReversed().flat().map((m) => m.content);
  const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `message ${from + i}`);

  it('gives the latest 50 first, then each earlier page, every message exactly once and in order', async () => {
    const id = await seed(120);
    const first = await page(id);
    expect(first.conversation.id).toBe(id);
    expect(first.messages.map((m) => m.content)).toEqual(numbered(71, 120));
    expect(first.earlier_cursor).toEqual(expect.any(String));

    const pages = await walk(id);
    expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
    expect(contents(pages)).toEqual(numbered(1, 120));
    expect(new Set(pages.flat().map((m) => m.id)).size).toBe(120);

    // Any page size from 1 to 100; the last page's cursor is null.
    expect(contents(await walk(id, 7))).toEqual(numbered(1, 120));
    expect((await walk(id, 100)).map((p) => p.length)).toEqual([100, 20]);
    const short = await page(await seed(3));
    expect(short.messages.map((m) => m.content)).toEqual(numbered(1, 3));
    expect(short.earlier_cursor).toBeNull();
  });

  it('keeps .../messages/recent as it was: the latest 20, oldest first', async () => {
    const id = await seed(45);
    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages/recent`);
    expect(res.status).toBe(200);
    expect(res.body.data.messages.map((m) => m.content)).toEqual(numbered(26, 45));
  });

  it('refuses a cursor it did not give and a bad limit with 400 and a sentence', async () => {
    const id = await seed(4);
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    const made = ['twelve|2026-11-23T10:00:00.000Z', '0|2026-11-23T10:00:00.000Z', '12|2026-11-23\u0000', '12|a|b', '12'].map(forged);
    for (const before of ['nonsense!', '', 'x'.repeat(200), ...made]) {
      const res = await s.api('GET', `/chat/conversations/${id}/messages`, { query: { before } });
      expect(res.status, before).toBe(400);
      expect(res.body.detail).toBe(MESSAGE_CURSOR_INVALID);
    }
    for (const limit of [0, 101, 'ten', 2.5]) {
      const res = await s.api('GET', `/chat/conversations/${id}/messages`, { query: { limit } });
      expect(res.status, String(limit)).toBe(400);
      expect(res.body.detail).toBe('limit must be a whole number from 1 to 100');
    }
  });

  it('cleans foreign markers out of a reply still being written or ended by a crash, and keeps its own', async () => {
    const foreign = 'See ![chart](https://evil.example/pixel.png)\n\n::document{url="https://evil.example/r.pdf" name="report.pdf"}';
    const own = '::document{url="/api/v1/documents/d1/download" name="policy.pdf"}';
    const id = await seed(4, (seq) => (seq % 2 ? `question ${seq}` : `${foreign}\n\n${own}`));
    // The two replies as the model wrote them: one being written, one that a crash ended.
    await s.db.updateTable('messages').set({ status: 'error' }).where('conversation_id', '=', id).where('seq', '=', 2).execute();
    await s.db.updateTable('messages').set({ status: 'streaming' }).where('conversation_id', '=', id).where('seq', '=', 4).execute();
    for (const read of [await page(id), (await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages/recent`)).body.data]) {
      const replies = read.messages.filter((m) => m.sender === 'Assistant');
      expect(replies.map((m) => m.status)).toEqual(['error', 'streaming']);
      for (const reply of replies) {
        expect(reply.content).not.toContain('![');
        expect(reply.content).not.toContain('::document{url="https://evil.example');
        expect(reply.content).toContain('https://evil.example/pixel.png');
        expect(reply.content).toContain(own);
      }
    }
  });

  it("answers another user's conversation and an unknown one with 404, cursor or not", async () => {
    const id = await seed(60);
    const { earlier_cursor } = await page(id);
    for (const query of [{}, { before: earlier_cursor! }]) {
      const theirs = await s.api('GET', `/chat/conversations/${id}/messages`, { token: s.otherToken, query });
      expect(theirs.status).toBe(404);
      expect(theirs.body.detail).toBe('Conversation not found');
    }
    expect((await s.api('GET', `/chat/conversations/${randomUUID()}/messages`)).status).toBe(404);
  });

  it('an edit that deletes later messages while a reader pages back neither repeats nor skips what remains', async () => {
    const id = await seed(120);
    const edited = async (seq: number) => {
      const all = (await walk(id, 100)).toReversed().flat();
      const question = all.find((m) => m.content === `message ${seq}`)!;
      await s.ask({ conversation_id: id, message: `message ${seq}, edited`, message_id_to_edit: question.id });
    };

    // After the first page (messages 71-120), message 41 is edited: 42-120 are deleted, including the page's start,
    // and the new reply takes seq 42. The pages before the first one hold 1-41, once each; the new reply is not
    // among them (it comes with the latest messages).
    const pages = await walk(id, 50, async (read) => {
      if (read === 1) await edited(41);
    });
    expect(pages[0]!.map((m) => m.content)).toEqual(numbered(71, 120));
    const earlier = pages.slice(1).toReversed().flat();
    expect(earlier.map((m) => m.content)).toEqual([...numbered(1, 40), 'message 41, edited']);

    // An edit inside the pages already read leaves the start of the next page in place.
    const again = await seed(120);
    const first = await page(again, { limit: 30 });
    const question = first.messages.find((m) => m.content === 'message 101')!;
    await s.ask({ conversation_id: again, message: 'message 101, edited', message_id_to_edit: question.id });
    const rest = await walk(again, 30, undefined).then((all) => all.toReversed().flat().map((m) => m.content));
    expect(rest.slice(0, 101)).toEqual([...numbered(1, 100), 'message 101, edited']);
    const older = await page(again, { before: first.earlier_cursor!, limit: 100 });
    expect(older.messages.map((m) => m.content)).toEqual(numbered(1, 90));
  });

  it('reads a 30 MB conversation about 2 MB at a time (and reports how /health answers meanwhile)', { timeout: 120_000 }, async () => {
    const MESSAGE_CHARS = 100_000;
    const id = await seed(300, (seq) => `message ${seq} `.padEnd(MESSAGE_CHARS, 'abcdefghij '));
    const health = async () => {
      const started = performance.now();
      const res = await fetch(`${s.apiUrl}/health`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    await health();

    const delay = monitorEventLoopDelay({ resolution: 5 });
    const healthTimes: number[] = [];
    let reading = true;
    const probe = (async () => {
      while (reading) {
        healthTimes.push(await health());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    delay.enable();
    const opened = performance.now();
    const first = await page(id);
    const openMs = performance.now() - opened;
    const pages = await walk(id);
    delay.disable();
    reading = false;
    await probe;

    const maxStallMs = delay.max / 1e6;
    const slowestHealthMs = Math.max(...healthTimes);
    console.log(
      `30 MB conversation (${dbKind}): first page ${openMs.toFixed(0)} ms; ${pages.length} pages; ` +
        `event loop stall max ${maxStallMs.toFixed(1)} ms; /health ${healthTimes.length} answers, slowest ${slowestHealthMs.toFixed(1)} ms`,
    );
    // A page holds about 2 MB of text at most (and always one message): 20 of these messages, not all 300.
    const chars = (messages: ChatMessage[]) => messages.reduce((n, m) => n + m.content.length, 0);
    expect(first.messages.length).toBe(MESSAGE_PAGE_MAX_CHARS / MESSAGE_CHARS);
    for (const p of pages) expect(chars(p)).toBeLessThanOrEqual(MESSAGE_PAGE_MAX_CHARS);
    expect(pages.flat().length).toBe(300);
    expect(pages.toReversed().flat().map((m) => Number(m.content.split(' ')[1]))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));

    // The times are reported, not asserted: on a shared machine they move with its load. What bounds the stall is
    // asserted above: no page holds more than about 2 MB, whatever the conversation's size.
    expect(healthTimes.length).toBeGreaterThan(0);
  });
});
