import type { Page } from '@playwright/test';

type Held = { hold: Promise<void> | null; release: () => void };
type Faults = { cutSend: boolean; words: Held; follow: Held };

/**
 * Faults in the middle of a stream, forced in the page itself: a Playwright route answers a request whole or not at
 * all, and these need a stream that has begun. Installed with `page.addInitScript(streamFaults)` (it wraps the
 * page's `fetch`, which the app's stream readers use), then switched per step:
 *
 * - `cutNextSend(page)`: the next POST /chat/messages passes its control record (the reply has its ids) and then
 *   fails as a dropped connection does. The server goes on writing the reply.
 * - `holdNextWords(page)` / `releaseWords(page)`: the next send's words wait after its control and status records (a
 *   deployment's web search may be over before 'Searching the web' can be seen).
 * - `holdFollow(page)` / `releaseFollow(page)`: a followed reply's stream (GET /chat/messages/{id}/stream) passes
 *   its first record (the text so far) and then waits, so the person can act while the reply is followed.
 *
 * And one answer as the server gave it a moment earlier: when a followed reply has ended before its stream is
 * opened (409 reply_not_streaming: on a busy machine the page is slower than the reply), the stream answers with the
 * saved text and ends without `done`, as the server's stream does for a reply it no longer writes. The page then
 * reads the conversation, as it would have.
 */
export const streamFaults = () => {
  const faults: Faults = { cutSend: false, words: { hold: null, release: () => {} }, follow: { hold: null, release: () => {} } };
  (window as unknown as { streamFaults: Faults }).streamFaults = faults;
  const realFetch = window.fetch.bind(window);
  const isData = (record: string) => /^data:/m.test(record) && !/^event:/m.test(record);

  /**
   * The body passed on record by record (a record ends with a blank line) until `stopsAt(record, dataSeen)` says so;
   * `dataSeen` counts the records before it that carry data without an event name (the control record, text).
   * `after` gets the stopped record with what was read after it, and the rest of the body. The body's end is asked
   * about as an empty record.
   */
  const relay = (
    body: ReadableStream<Uint8Array>,
    stopsAt: (record: string, dataSeen: number) => boolean,
    after: (pending: string, rest: ReadableStreamDefaultReader<Uint8Array>, out: ReadableStreamDefaultController<Uint8Array>) => Promise<void>,
  ) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      async start(out) {
        let buffer = '';
        let dataSeen = 0;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            // The end is a stop too (a held follow must not end either).
            if (stopsAt('', dataSeen)) return after(buffer, reader, out);
            if (buffer) out.enqueue(encoder.encode(buffer));
            return out.close();
          }
          buffer += decoder.decode(value, { stream: true });
          for (let end = /\r?\n\r?\n/.exec(buffer); end; end = /\r?\n\r?\n/.exec(buffer)) {
            const record = buffer.slice(0, end.index + end[0].length);
            if (stopsAt(record, dataSeen)) return after(buffer, reader, out);
            if (isData(record)) dataSeen += 1;
            out.enqueue(encoder.encode(record));
            buffer = buffer.slice(record.length);
          }
        }
      },
    });
  };
  /** For `relay`: the rest passes once `hold` is over. */
  const passAfter =
    (hold: Promise<void>) => async (pending: string, rest: ReadableStreamDefaultReader<Uint8Array>, out: ReadableStreamDefaultController<Uint8Array>) => {
      await hold;
      out.enqueue(new TextEncoder().encode(pending));
      for (;;) {
        const { value, done } = await rest.read();
        if (done) return out.close();
        out.enqueue(value);
      }
    };

  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const response = await realFetch(input, init);
    const sent = method === 'POST' && url.pathname.endsWith('/api/v1/chat/messages') && response.body;
    const words = faults.words.hold;
    if (sent && words && !faults.cutSend) {
      faults.words.hold = null;
      // The control record and what the server is doing pass; the words wait.
      const body = relay(response.body!, (record, dataSeen) => dataSeen >= 1 && isData(record), passAfter(words));
      return new Response(body, { status: response.status, headers: response.headers });
    }
    if (sent && faults.cutSend) {
      faults.cutSend = false;
      // The control record and what the server is doing pass; the first words do not.
      const body = relay(response.body!, (record, dataSeen) => dataSeen >= 1 && isData(record), async (_pending, rest, out) => {
        // The rest is read and dropped (the page has gone as far as it hears), the page sees the connection fail.
        void (async () => {
          while (!(await rest.read()).done);
        })().catch(() => {});
        out.error(new TypeError('network error'));
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }
    const followed = /\/api\/v1\/chat\/messages\/([^/]+)\/stream$/.exec(url.pathname);
    if (method === 'GET' && followed) {
      let body: ReadableStream<Uint8Array> | null = response.body;
      if (response.status === 409) {
        // Ended before it was followed: the saved text, read with the page's own authorization.
        const conversationId = new URLSearchParams(location.search).get('id');
        const recent = await realFetch(`/api/v1/chat/conversations/${conversationId}/messages/recent`, { headers: new Headers(init?.headers) });
        const saved = ((await recent.json()) as { data: { messages: Array<{ id: string; content: string }> } }).data.messages.find((m) => m.id === followed[1]);
        body = new Response(saved ? `data: ${JSON.stringify(saved.content)}\n\n` : '').body;
      }
      if (!body) return response;
      const hold = faults.follow.hold;
      if (hold) {
        // The text so far passes; whatever comes next (words, done, the end) waits.
        body = relay(body, (_record, dataSeen) => dataSeen >= 1, passAfter(hold));
      }
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    return response;
  };
};

export const cutNextSend = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { streamFaults: Faults }).streamFaults.cutSend = true;
  });

/** Holds the next send's words (what comes after its control and status records) until `releaseWords`. */
export const holdNextWords = (page: Page) => hold(page, 'words');
export const releaseWords = (page: Page) => release(page, 'words');
/** Holds the next followed reply's stream after its text so far until `releaseFollow`. */
export const holdFollow = (page: Page) => hold(page, 'follow');
/** Lets a held follow go on; says whether one was held. */
export const releaseFollow = (page: Page) => release(page, 'follow');

const hold = (page: Page, which: 'words' | 'follow') =>
  page.evaluate((which) => {
    const held = (window as unknown as { streamFaults: Faults }).streamFaults[which];
    held.hold = new Promise<void>((resolve) => (held.release = resolve));
  }, which);

const release = (page: Page, which: 'words' | 'follow') =>
  page.evaluate((which) => {
    const held = (window as unknown as { streamFaults: Faults }).streamFaults[which];
    const wasHeld = held.hold !== null;
    held.release();
    held.hold = null;
    return wasHeld;
  }, which);
