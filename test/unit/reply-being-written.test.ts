import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../contract/chat';
import { replyBeingWrittenId } from '../../machines/chat-send.machine';
import { MessageItem } from '../../src/features/chat/message-item';

// A reply the server is still writing (status 'streaming') is shown as being written only while the chat writes or
// follows it. Once following it failed or was given up, it is shown as last read: not busy, no thinking dots.

const reply = (id: string, content: string, status: ChatMessage['status'] = 'streaming'): ChatMessage => ({
  id,
  conversation_id: 'c1',
  content,
  sender: 'Assistant',
  status,
  created_at: '2026-11-29T03:00:00.000Z',
  stopped: false,
});

const render = (content: string, isWriting: boolean) =>
  renderToStaticMarkup(createElement(MessageItem, { message: reply('a1', content), isBusy: isWriting, isWriting, onEdit: () => {}, onSavePrompt: () => {} }));

const snapshot = (busy: boolean, streamingMessageId: string | null, messages: ChatMessage[]) => ({
  hasTag: (tag: string) => busy && tag === 'busy',
  context: { streamingMessageId, messages },
});

describe('a reply the server is still writing', () => {
  it('is marked as being written while the chat follows it, with the thinking dots until its first words', () => {
    expect(render('', true)).toContain('aria-busy="true"');
    expect(render('', true)).toContain('Thinking');
    expect(render('Penang i', true)).toContain('aria-busy="true"');
  });

  it('is shown as last read once following it failed: not busy, no dots, its words kept and copyable', () => {
    for (const html of [render('', false), render('Penang i', false)]) {
      expect(html).not.toContain('aria-busy');
      expect(html).not.toContain('Thinking');
    }
    expect(render('Penang i', false)).toContain('Penang i');
    expect(render('Penang i', false)).toContain('aria-label="Copy message"');
  });
});

describe('replyBeingWrittenId', () => {
  const stale = reply('a1', 'Penang i');
  const done = reply('a1', 'Penang it is.', 'complete');
  const placeholder = reply('pending', '');

  it('is none when the chat neither writes nor follows (a follow failed or gave up)', () => {
    expect(replyBeingWrittenId(snapshot(false, null, [stale]))).toBeNull();
  });

  it('is the reply of its own send, else the newest reply being written, not an older one left unfinished', () => {
    expect(replyBeingWrittenId(snapshot(true, 'r2', [stale, reply('r2', 'Sure')]))).toBe('r2');
    expect(replyBeingWrittenId(snapshot(true, null, [stale, placeholder]))).toBe('pending');
    expect(replyBeingWrittenId(snapshot(true, null, [done, reply('a2', 'Four d')]))).toBe('a2');
  });
});
