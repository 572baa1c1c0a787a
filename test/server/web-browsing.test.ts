import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toolsMarker } from '../../contract/markers';
import type { ToolsConfig } from '../../server/config';
import { SafeFetchError } from '../../server/tools/safe-fetch';
import {
  browseTheWeb,
  SEARCHED_THE_WEB,
  WEB_BROWSING,
  WEB_BROWSING_NOT_CONFIGURED,
  WEB_SEARCH_FOUND_NOTHING,
  webSearchFailed,
} from '../../server/tools/web-browsing';
import { readPage } from '../../server/tools/web-pages';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
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
    expect(web.searches.length).toBe(before);
  });

  it('lets a free package browse', async () => {
    const reply = await s.ask({ conversation_id: null, message: 'Free browsing question', browsing: true }, freeToken);
    expect(reply.text).toBe(`${expectedMarker()}\n\n${FAKE_TEXT}`);
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
