import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toolsMarker } from '../../shared/markers';
import type { ToolsConfig } from '../../server/config';
import { SafeFetchError } from '../../server/services/chat/tools/safe-fetch';
import {
  browseTheWeb,
  SEARCHED_THE_WEB,
  WEB_BROWSING,
  WEB_BROWSING_NOT_CONFIGURED,
  WEB_SEARCH_FOUND_NOTHING,
  webSearchFailed,
} from '../../server/services/chat/tools/web-browsing';
import { readPage } from '../../server/services/chat/tools/web-pages';
import type { ConversationMessages, ReplyStopResult } from '../../contract/chat';
import type { DocumentView } from '../../contract/documents';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { readSse, type SseEvent } from './helpers/sse';
import { DEFAULT_FAKE_REPLY, isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { ARTICLE_SENTENCE, ARTICLE_TITLE, DEFAULT_RESULTS, SEARCH_KEY, startFakeWeb, type FakeWeb } from './helpers/fake-search';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

const FAKE_TEXT = DEFAULT_FAKE_REPLY.join('');

describe(`web browsing (${dbKind})`, () => {
  let web: FakeWeb;
  let model: FakeOpenAi;
  let s: ChatServer;
  let freeToken: string;

  beforeAll(async () => {
    web = await startFakeWeb();
    model = await startFakeOpenAi();
    s = await startChatServer({
      env: {
        LLM_BASE_URL: model.baseUrl,
        LLM_MODEL: 'gpt-4o-mini',
        SEARCH_PROVIDER: 'searxng',
        SEARCH_URL: web.searxngUrl,
        // The fake web listens on 127.0.0.1: only this exact host:port gets past the SSRF guard.
        WEB_FETCH_ALLOW_HOSTS: web.hostPort,
      },
    });
    const free = await createOrganisation(s.db, { name: 'Free Browsers', packageType: 'free' });
    await addUser(s.db, { client_id: free.client.id, name: 'Frank Free', email: 'frank@free.example' });
    freeToken = (await login(s.app, 'frank@free.example')).access_token;
  });
  afterEach(() => {
    web.results = DEFAULT_RESULTS;
    web.failWith = undefined;
  });
  afterAll(async () => {
    await s?.close();
    await model?.close();
    await web?.close();
  });

  /** The reply request (not a title request) the fake model received for this question. */
  const modelRequestFor = (question: string) =>
    model.requests.find((r) => !isTitleRequest(r) && r.body.messages.at(-1)?.content === question);
  const pageUrl = (path: string) => `${web.origin}${path}`;
  const savedMessages = async (conversationId: string) =>
    (await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`)).body.data.messages;

  const expectedMarker = () =>
    toolsMarker(
    [
      `- [${ARTICLE_TITLE}](<${pageUrl('/pages/article.html')}>)`,
      `- [Huge page](<${pageUrl('/pages/huge.html')}>) (not read: larger than 2 MB)`,
      `- [Sneaky page](<${pageUrl('/pages/to-private')}>) (not read: 169.254.169.254 is not a public address)`,
    ].join('\n'),
    SEARCHED_THE_WEB,
  );

  it('searches, reads the top three pages and gives their text to the model; the reply starts with the sources', async () => {
    const question = 'When was the lighthouse on Pulau Tanya painted teal?';
    const reply = await s.ask({ conversation_id: null, message: question, browsing: true });

    expect(web.searches.at(-1)).toMatchObject({ provider: 'searxng', query: question });
    // The top three results only (the photo, fourth, is never fetched); the redirect's private target is not either.
    expect(web.pageRequests.slice(-3).sort()).toEqual(['/pages/article.html', '/pages/huge.html', '/pages/to-private']);
    expect(reply.errors).toEqual([]);
    expect(reply.statuses).toEqual([{ activity: 'searching_web' }]);
    expect(reply.order.slice(0, 3)).toEqual(['message', 'status', 'message']);
    expect(reply.text).toBe(`${expectedMarker()}\n\n${FAKE_TEXT}`);

    const system = modelRequestFor(question)!.body.messages[0].content;
    expect(system).toContain(ARTICLE_SENTENCE);
    expect(system).toContain(`URL: ${pageUrl('/pages/article.html')}`);
    // Readable text only: no navigation, footer, script or style.
    expect(system).not.toContain('Navigation that is not the article');
    expect(system).not.toContain('script text never read');
    expect(system).not.toContain('color: red');
    // An unread page is given with its search snippet and why it was not read; the large page's text never.
    expect(system).toContain('(the page could not be read: larger than 2 MB; the search result said:) A page of three megabytes.');
    expect(system).not.toContain('too large too large');

    const saved = await s.api<{ messages: { content: string }[] }>('GET', `/chat/conversations/${reply.control.conversation_id}/messages`);
    expect(saved.body.data.messages.at(-1)!.content).toBe(reply.text);
  });

  it('goes on without the web when the search fails, and says what failed', async () => {
    web.failWith = 500;
    const reply = await s.ask({ conversation_id: null, message: 'Any news today?', browsing: true });
    expect(reply.errors).toEqual([]);
    expect(reply.text).toBe(`${toolsMarker(webSearchFailed('SearXNG answered HTTP 500'), WEB_BROWSING)}\n\n${FAKE_TEXT}`);
    expect(modelRequestFor('Any news today?')!.body.messages[0].content).toContain('but the web search failed');
  });

  it('says so when the search finds nothing', async () => {
    web.results = [];
    const reply = await s.ask({ conversation_id: null, message: 'zxqv nothing matches', browsing: true });
    expect(reply.text).toBe(`${toolsMarker(WEB_SEARCH_FOUND_NOTHING, WEB_BROWSING)}\n\n${FAKE_TEXT}`);
  });

  it('does not browse when browsing is off', async () => {
    const before = web.searches.length;
    const reply = await s.ask({ conversation_id: null, message: 'No web for this one', browsing: false });
    expect(reply.text).toBe(FAKE_TEXT);
    expect(reply.statuses).toEqual([]);
    expect(web.searches.length).toBe(before);
  });

  it('lets a free package browse', async () => {
    const reply = await s.ask({ conversation_id: null, message: 'Free browsing question', browsing: true }, freeToken);
    expect(reply.text).toBe(`${expectedMarker()}\n\n${FAKE_TEXT}`);
  });

  it('opens the stream before the web answers: the question is saved and the reader told the web is being searched', async () => {
    const release = web.hold();
    const question = 'Is the teal lighthouse open on Saturdays?';
    try {
      const res = await s.send({ conversation_id: null, message: question, browsing: true });
      expect(res.status).toBe(200);
      const events = readSse(res.body!);
      const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
      expect((await events.next()).value).toEqual({ event: 'status', data: JSON.stringify({ activity: 'searching_web' }) });
      const saved = await savedMessages(control.conversation_id);
      expect(saved.map((m) => [m.sender, m.status, m.content])).toEqual([
        ['user', 'complete', question],
        ['Assistant', 'streaming', ''],
      ]);
      expect(modelRequestFor(question)).toBeUndefined();

      release();
      const rest: SseEvent[] = [];
      for await (const e of { [Symbol.asyncIterator]: () => events }) rest.push(e);
      const text = rest.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data) as string).join('');
      expect(text).toBe(`${expectedMarker()}\n\n${FAKE_TEXT}`);
      expect(rest.at(-1)!.event).toBe('done');
      expect(modelRequestFor(question)!.body.messages[0].content).toContain(ARTICLE_SENTENCE);
    } finally {
      release();
    }
  });

  it('stops while the web is searched: the reply ends empty and stopped, the model is never asked', async () => {
    const release = web.hold();
    const question = 'Never mind the lighthouse';
    try {
      const res = await s.send({ conversation_id: null, message: question, browsing: true });
      const events = readSse(res.body!);
      const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
      expect((await events.next()).value?.event).toBe('status');

      const stop = await s.api<ReplyStopResult>('POST', `/chat/messages/${control.message_id}/stop`);
      expect(stop.status).toBe(200);
      expect(stop.body.data).toEqual({ message_id: control.message_id, stopped: true });
      const rest: SseEvent[] = [];
      for await (const e of { [Symbol.asyncIterator]: () => events }) rest.push(e);
      expect(rest.map((e) => e.event)).toEqual(['done']);
      expect(JSON.parse(rest[0]!.data)).toMatchObject({ message_id: control.message_id, stopped: true, usage: { prompt_tokens: 0, completion_tokens: 0 } });
      expect((await savedMessages(control.conversation_id)).at(-1)).toMatchObject({ status: 'complete', stopped: true, content: '' });

      // The search it was waiting on comes back too late to matter; the conversation takes the next question.
      release();
      await new Promise((r) => setTimeout(r, 100));
      expect(modelRequestFor(question)).toBeUndefined();
      const next = await s.ask({ conversation_id: control.conversation_id, message: 'Something else then' });
      expect(next.errors).toEqual([]);
    } finally {
      release();
    }
  });

  it('still brings the files attached to a new chat into a browsing reply', async () => {
    const upload = await uploadFile(s, null, 'ferry.txt', Buffer.from('The ferry to Pulau Tanya leaves the harbour at seven every morning.', 'utf8'));
    expect(upload.status).toBe(201);
    await eventually(async () => (await s.api<DocumentView>('GET', `/documents/${upload.body.data.id}`)).body.data.status === 'ready');
    const question = 'When does the ferry to Pulau Tanya leave the harbour?';
    const reply = await s.ask({ conversation_id: null, message: question, browsing: true, document_ids: [upload.body.data.id] });
    expect(reply.errors).toEqual([]);
    const system = modelRequestFor(question)!.body.messages[0].content;
    expect(system).toContain('leaves the harbour at seven');
    expect(system).toContain(ARTICLE_SENTENCE);
    // The reply cites the file after the model's text, as without browsing.
    expect(reply.text).toContain('ferry.txt');
  });

  it('escapes page titles and search-result titles in the marker', async () => {
    web.results = [{ title: 'Evil :image[x]{url="https://evil.example/p.png"} [link](javascript:alert(1))', url: '/pages/notes.txt', snippet: 's' }];
    const reply = await s.ask({ conversation_id: null, message: 'Escaping question', browsing: true });
    expect(reply.text).toContain(
      '- [Evil \\:image\\[x\\]\\{url="https\\://evil.example/p.png"\\} \\[link\\]\\(javascript\\:alert\\(1\\)\\)]' +
        `(<${pageUrl('/pages/notes.txt')}>)`,
    );
    expect(modelRequestFor('Escaping question')!.body.messages[0].content).toContain('Plain notes: the ferry leaves at 7.');
  });

  describe('each search provider', () => {
    const tools = (search: ToolsConfig['search']): ToolsConfig => ({ search, webFetchAllowHosts: [web.hostPort], images: undefined });
    const browse = (config: ToolsConfig, question: string) => browseTheWeb(config, question, { log: s.app.log, signal: new AbortController().signal });

    it('SearXNG: GET /search?q=...&format=json', async () => {
      const context = await browse(tools({ provider: 'searxng', url: `${web.searxngUrl}/`, apiKey: undefined }), 'lighthouse searxng');
      expect(web.searches.at(-1)).toEqual({ provider: 'searxng', query: 'lighthouse searxng', count: undefined, key: undefined });
      expect(context.before).toBe(expectedMarker());
      expect(context.prompt?.[0]).toContain(ARTICLE_SENTENCE);
    });

    it('Tavily: POST with a bearer key and max_results', async () => {
      const context = await browse(tools({ provider: 'tavily', url: web.tavilyUrl, apiKey: SEARCH_KEY }), 'lighthouse tavily');
      expect(web.searches.at(-1)).toEqual({ provider: 'tavily', query: 'lighthouse tavily', count: 5, key: SEARCH_KEY });
      expect(context.before).toBe(expectedMarker());
      expect(context.prompt?.[0]).toContain(ARTICLE_SENTENCE);
    });

    it('Brave: GET with X-Subscription-Token and count, highlights removed', async () => {
      const context = await browse(tools({ provider: 'brave', url: web.braveUrl, apiKey: SEARCH_KEY }), 'lighthouse brave');
      expect(web.searches.at(-1)).toEqual({ provider: 'brave', query: 'lighthouse brave', count: 5, key: SEARCH_KEY });
      expect(context.before).toBe(expectedMarker());
      expect(context.prompt?.[0]).toContain('A page of three megabytes.');
      expect(context.prompt?.[0]).not.toContain('<strong>');
    });

    it('a refused key is reported by status, never with the key', async () => {
      for (const provider of ['tavily', 'brave'] as const) {
        const url = provider === 'tavily' ? web.tavilyUrl : web.braveUrl;
        const context = await browse(tools({ provider, url, apiKey: 'wrong-key-abcdef-123456' }), 'refused');
        const name = provider === 'tavily' ? 'Tavily' : 'Brave Search';
        expect(context.before).toBe(toolsMarker(webSearchFailed(`${name} answered HTTP 401`), WEB_BROWSING));
        expect(JSON.stringify(context)).not.toContain('wrong-key');
      }
    });

    it('an unreachable provider is reported, and the reply can go on', async () => {
      const context = await browse(tools({ provider: 'searxng', url: 'http://127.0.0.1:9', apiKey: undefined }), 'down');
      expect(context.before).toBe(toolsMarker(webSearchFailed('SearXNG could not be reached'), WEB_BROWSING));
    });
  });

  describe('reading a page', () => {
    const read = (path: string) => readPage(pageUrl(path), { allowHosts: [web.hostPort], signal: new AbortController().signal });

    it('reads plain text and follows a redirect', async () => {
      expect(await read('/pages/notes.txt')).toEqual({ url: pageUrl('/pages/notes.txt'), title: '', text: 'Plain notes: the ferry leaves at 7.' });
      const moved = await read('/pages/moved');
      expect(moved.url).toBe(pageUrl('/pages/article.html'));
      expect(moved.title).toBe(ARTICLE_TITLE);
      // The article's paragraphs, each its own (Readability drops the heading that repeats the title).
      expect(moved.text.startsWith(`${ARTICLE_SENTENCE} It stands on the northern cape`)).toBe(true);
      expect(moved.text).toContain('into the harbour at night.\n\nIts lamp was first lit');
      expect(moved.text.length).toBeLessThanOrEqual(4_000);
    });

    it('refuses a non-text page, a too large one and a redirect to a private address', async () => {
      const failures = await Promise.all(['/pages/photo.png', '/pages/huge.html', '/pages/to-private'].map((p) => read(p).catch((e: unknown) => e)));
      expect(failures.map((f) => (f instanceof SafeFetchError ? f.failure : f))).toEqual(['type', 'too-large', 'address']);
    });

    it('refuses the test pages without the explicit allowance', async () => {
      const err = await readPage(pageUrl('/pages/notes.txt'), { allowHosts: [], signal: new AbortController().signal }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SafeFetchError);
      expect((err as SafeFetchError).failure).toBe('address');
    });
  });
});

describe(`web browsing not configured (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s?.close());

  it('says so in a tools marker, and the reply goes on', async () => {
    const reply = await s.ask({ conversation_id: null, message: 'What is new on the web?', browsing: true });
    const marker = toolsMarker(WEB_BROWSING_NOT_CONFIGURED, WEB_BROWSING);
    expect(reply.text.startsWith(`${marker}\n\n`)).toBe(true);
    // The offline responder answers after it.
    expect(reply.text).toContain("This is Tanya's offline demo responder.");
    expect(reply.errors).toEqual([]);
  });
});
