import '../../src/app/static-guest-storage';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMessages } from '../../contract/chat';
import type { Viewer } from '../../src/app/route-access';

// The boot's early request for the conversation a tab opens, against the app's real routes and guards.
const fetchMessages = vi.hoisted(() => vi.fn());
vi.mock('../../src/api/chat', () => ({ fetchMessages }));

const { routes } = await import('../../src/app/routes');
const { prefetchOpenedConversation } = await import('../../src/app/conversation-prefetch');
const { OPENED_CONVERSATION_FRESH_MS, takeArrivedConversation, takeOpenedConversation } = await import('../../src/lib/opened-conversation');

const user: Viewer = { authenticated: true, role: 'user', departmentId: 'd1' };
const admin: Viewer = { authenticated: true, role: 'admin', departmentId: null };
const newhire: Viewer = { ...user, departmentId: null };
const guest: Viewer = { authenticated: false, role: null, departmentId: null };

const at = (url: string) => {
  const { pathname, search } = new URL(url, 'http://tanya.test');
  return { pathname, search };
};
const page = { messages: [] } as unknown as ConversationMessages;

beforeEach(() => {
  fetchMessages.mockReset().mockResolvedValue(page);
  takeOpenedConversation('(clear)');
});

describe('the conversation a tab opens is requested at boot', () => {
  it('for someone the guards let onto the chat, once, and the chat takes that request', async () => {
    expect(prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user)).toBe('c1');
    expect(fetchMessages).toHaveBeenCalledTimes(1);
    expect(fetchMessages).toHaveBeenCalledWith('c1');
    const taken = takeOpenedConversation('c1');
    expect(taken).not.toBeNull();
    await expect(taken).resolves.toBe(page);
    // Handed out once: a later load (a refresh, coming back) asks the server again.
    expect(takeOpenedConversation('c1')).toBeNull();
    expect(prefetchOpenedConversation(routes, at('/chat/?id=c2'), '/', admin)).toBe('c2');
  });

  it('under a base path', () => {
    expect(prefetchOpenedConversation(routes, at('/tanya/chat?id=c1'), '/tanya', user)).toBe('c1');
    expect(prefetchOpenedConversation(routes, at('/chat?id=c1'), '/tanya', user)).toBeNull();
  });

  it('not for a visitor the guards send elsewhere, nor for other addresses', () => {
    expect(prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', guest)).toBeNull(); // to Login
    expect(prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', newhire)).toBeNull(); // held on Profile
    expect(prefetchOpenedConversation(routes, at('/chat'), '/', user)).toBeNull(); // the new-chat screen
    expect(prefetchOpenedConversation(routes, at('/chat?id='), '/', user)).toBeNull();
    expect(prefetchOpenedConversation(routes, at('/home?id=c1'), '/', admin)).toBeNull();
    expect(prefetchOpenedConversation(routes, at('/share/c1?id=c1'), '/', user)).toBeNull();
    expect(fetchMessages).not.toHaveBeenCalled();
  });
});

describe('the chat takes the early request', () => {
  it('only for the same conversation, and only while it is fresh', () => {
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    // The first load is for another conversation: the early one is dropped, not kept for later.
    expect(takeOpenedConversation('c2')).toBeNull();
    expect(takeOpenedConversation('c1')).toBeNull();

    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    expect(takeOpenedConversation('c1', Date.now() + OPENED_CONVERSATION_FRESH_MS - 1_000)).not.toBeNull();
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    expect(takeOpenedConversation('c1', Date.now() + OPENED_CONVERSATION_FRESH_MS + 1_000)).toBeNull();
  });

  it('once arrived, its page is handed out as it is (the chat starts with it), once, and only while fresh', async () => {
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    // On its way: nothing in hand, and the request stays for the chat's first load.
    expect(takeArrivedConversation('c1')).toBeNull();
    await Promise.resolve();
    expect(takeArrivedConversation('c2')).toBeNull();
    expect(takeArrivedConversation('c1', Date.now() + OPENED_CONVERSATION_FRESH_MS + 1_000)).toBeNull();
    expect(takeArrivedConversation('c1')).toBe(page);
    expect(takeArrivedConversation('c1')).toBeNull();
    expect(takeOpenedConversation('c1')).toBeNull();

    fetchMessages.mockReset().mockRejectedValue(new Error('Conversation not found'));
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A failed request is never in hand: the chat's load takes it and reports the failure.
    expect(takeArrivedConversation('c1')).toBeNull();
    await expect(takeOpenedConversation('c1')).rejects.toThrow('Conversation not found');
  });

  it('a failed early request fails the load that takes it; one nobody takes raises no unhandled rejection', async () => {
    fetchMessages.mockReset().mockRejectedValue(new Error('Conversation not found'));
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    await expect(takeOpenedConversation('c1')).rejects.toThrow('Conversation not found');
    prefetchOpenedConversation(routes, at('/chat?id=c2'), '/', user);
    // Vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
