import '../../src/app/static-guest-storage';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMessages } from '../../contract/chat';
import type { Viewer } from '../../src/app/route-access';

// The boot's early request for the conversation a tab opens, against the app's real routes and guards.
const fetchMessages = vi.hoisted(() => vi.fn());
vi.mock('../../src/api/chat', () => ({ fetchMessages }));
// The chat screen's code, as the route's lazy load gets it.
const ChatPage = vi.hoisted(() => () => null);
vi.mock('../../src/features/chat/chat-page', () => ({ default: ChatPage }));

const { OPENED_CONVERSATION_WAIT_MS, routes } = await import('../../src/app/routes');
const { prefetchOpenedConversation } = await import('../../src/app/conversation-prefetch');
const { OPENED_CONVERSATION_FRESH_MS, openedConversationSettled, takeArrivedConversation, takeOpenedConversation } = await import(
  '../../src/lib/opened-conversation'
);

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

describe('the chat route waits for the early request', () => {
  const chatRoute = () => routes[0]!.children!.find((r) => r.path === '/chat')!;
  /** Whether `promise` has settled after the microtasks and timers due now have run. */
  const settledNow = async (promise: Promise<unknown>) => {
    let settled = false;
    void promise.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    return settled;
  };
  const pending = () => {
    let resolve!: (value: ConversationMessages) => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<ConversationMessages>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it('settles at once when nothing is on its way, or it has arrived', async () => {
    expect(await settledNow(openedConversationSettled(60_000))).toBe(true);
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    await Promise.resolve();
    expect(await settledNow(openedConversationSettled(60_000))).toBe(true);
  });

  it('until the page has arrived (and is in hand), or the request has failed', async () => {
    const answer = pending();
    fetchMessages.mockReset().mockReturnValue(answer.promise);
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    const waited = openedConversationSettled(60_000);
    expect(await settledNow(waited)).toBe(false);
    answer.resolve(page);
    expect(await settledNow(waited)).toBe(true);
    expect(takeArrivedConversation('c1')).toBe(page);

    const failing = pending();
    fetchMessages.mockReset().mockReturnValue(failing.promise);
    prefetchOpenedConversation(routes, at('/chat?id=c2'), '/', user);
    const waitedForFailure = openedConversationSettled(60_000);
    failing.reject(new Error('Conversation not found'));
    expect(await settledNow(waitedForFailure)).toBe(true);
    await expect(takeOpenedConversation('c2')).rejects.toThrow('Conversation not found');
  });

  it('for OPENED_CONVERSATION_WAIT_MS at most: a slow answer does not hold the screen back', async () => {
    vi.useFakeTimers();
    try {
      fetchMessages.mockReset().mockReturnValue(new Promise(() => undefined));
      prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
      let done = false;
      void openedConversationSettled(OPENED_CONVERSATION_WAIT_MS).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(OPENED_CONVERSATION_WAIT_MS - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the chat route's code is handed over only once the page has arrived", async () => {
    const answer = pending();
    fetchMessages.mockReset().mockReturnValue(answer.promise);
    prefetchOpenedConversation(routes, at('/chat?id=c1'), '/', user);
    const lazy = chatRoute().lazy as () => Promise<{ Component?: unknown }>;
    const loading = lazy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await settledNow(loading)).toBe(false);
    answer.resolve(page);
    expect((await loading).Component).toBe(ChatPage);
    expect(takeArrivedConversation('c1')).toBe(page);
  });
});
