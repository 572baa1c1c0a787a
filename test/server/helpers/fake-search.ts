import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** The sentence only the article page holds: seen in the model's system prompt when the page was read. */
export const ARTICLE_SENTENCE = 'The lighthouse on Pulau Tanya was painted teal in 1887 by the harbour master.';
export const ARTICLE_TITLE = 'Teal lighthouse facts';
export const SEARCH_KEY = 'search-key-0123456789-secret';

export interface FakeResult {
  title: string;
  /** A path on this server (e.g. '/pages/article.html') or an absolute URL. */
  url: string;
  snippet: string;
}

export interface RecordedSearch {
  provider: 'searxng' | 'tavily' | 'brave';
  query: string;
  /** max_results (Tavily) or count (Brave). */
  count: number | undefined;
  /** The key as the provider received it (Authorization bearer, X-Subscription-Token). */
  key: string | undefined;
}

export interface FakeWeb {
  /** http://127.0.0.1:port */
  origin: string;
  /** 127.0.0.1:port: the one host:port the tests let the SSRF guard reach (WEB_FETCH_ALLOW_HOSTS). */
  hostPort: string;
  /** SEARCH_URL per provider. */
  searxngUrl: string;
  tavilyUrl: string;
  braveUrl: string;
  searches: RecordedSearch[];
  /** Paths of the pages requested, in order. */
  pageRequests: string[];
  /** What every provider answers; the default names the four test pages. */
  results: FakeResult[];
  /** When set, every search endpoint answers with this HTTP status. */
  failWith: number | undefined;
  /** Holds every request that arrives from now on (a slow web) until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** The pages the default results name, best first: an article, one too large, one redirecting to a private address. */
export const DEFAULT_RESULTS: FakeResult[] = [
  { title: 'Lighthouse article', url: '/pages/article.html', snippet: 'All about the teal lighthouse.' },
  { title: 'Huge page', url: '/pages/huge.html', snippet: 'A page of three megabytes.' },
  { title: 'Sneaky page', url: '/pages/to-private', snippet: 'Redirects to the metadata service.' },
  { title: 'A photo', url: '/pages/photo.png', snippet: 'Not text.' },
];

const ARTICLE_HTML = `<!doctype html>
<html><head><title>${ARTICLE_TITLE}</title><style>body { color: red }</style></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a> | Navigation that is not the article</nav>
<article>
<h1>The teal lighthouse</h1>
<p>${ARTICLE_SENTENCE} It stands on the northern cape of the island and guides the ferries into the harbour at night.</p>
<p>${'Its lamp was first lit with whale oil, later with kerosene, and since 1958 it has been electric. '.repeat(6)}</p>
<p>Visitors may climb the 112 steps on Saturdays between ten and four, weather permitting.</p>
</article>
<footer>Copyright notice of the footer</footer>
<script>window.secret = 'script text never read';</script>
</body></html>`;

/**
 * A local stand-in for the web: the three search providers' APIs (SearXNG's JSON format, Tavily's POST /search,
 * Brave's /res/v1/web/search, each with its own result shape and key header) and the pages they point to, on
 * 127.0.0.1 (allowed through the SSRF guard by the tests' WEB_FETCH_ALLOW_HOSTS only). `port`: a fixed one (the e2e
 * server's web, test/e2e/helpers/slow-web.ts); `searchDelayMs`: every search answers that late, as real ones take seconds.
 */
export async function startFakeWeb(options: { port?: number; searchDelayMs?: number } = {}): Promise<FakeWeb> {
  let held: Promise<void> | undefined;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    const slowSearch = options.searchDelayMs && !req.url?.startsWith('/pages/') ? sleep(options.searchDelayMs) : undefined;
    const gate = held ?? slowSearch;
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const answer = () => {
        // A request its client gave up on while held (a stopped reply) gets no answer.
        if (!res.destroyed) handle(req, res, Buffer.concat(parts).toString('utf8'));
      };
      if (gate) void gate.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const web: FakeWeb = {
    origin,
    hostPort: `127.0.0.1:${port}`,
    searxngUrl: `${origin}/searxng`,
    tavilyUrl: `${origin}/tavily/search`,
    braveUrl: `${origin}/brave/res/v1/web/search`,
    searches: [],
    pageRequests: [],
    results: DEFAULT_RESULTS,
    failWith: undefined,
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const absolute = (url: string) => (url.startsWith('/') ? `${origin}${url}` : url);
  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', origin);
    const search = (provider: RecordedSearch['provider'], query: string, count: number | undefined, key: string | undefined) => {
      web.searches.push({ provider, query, count, key });
      if (web.failWith) {
        json(res, web.failWith, { error: 'the fake provider failed' });
        return false;
      }
      if (provider !== 'searxng' && key !== SEARCH_KEY) {
        json(res, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
        return false;
      }
      return true;
    };

    if (req.method === 'GET' && url.pathname === '/searxng/search') {
      if (url.searchParams.get('format') !== 'json') return void res.writeHead(403).end('format not allowed');
      if (!search('searxng', url.searchParams.get('q') ?? '', undefined, undefined)) return;
      return json(res, 200, {
        query: url.searchParams.get('q'),
        number_of_results: web.results.length,
        results: web.results.map((r, i) => ({ url: absolute(r.url), title: r.title, content: r.snippet, engine: 'fake', score: 10 - i, category: 'general' })),
        answers: [],
        suggestions: [],
        unresponsive_engines: [],
      });
    }
    if (req.method === 'POST' && url.pathname === '/tavily/search') {
      const request = JSON.parse(body || '{}') as { query?: string; max_results?: number };
      const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!search('tavily', request.query ?? '', request.max_results, key)) return;
      return json(res, 200, {
        query: request.query,
        answer: null,
        images: [],
        results: web.results.map((r, i) => ({ title: r.title, url: absolute(r.url), content: r.snippet, score: 0.9 - i / 10, raw_content: null })),
        response_time: 0.42,
      });
    }
    if (req.method === 'GET' && url.pathname === '/brave/res/v1/web/search') {
      const key = req.headers['x-subscription-token'];
      const count = url.searchParams.get('count');
      if (!search('brave', url.searchParams.get('q') ?? '', count === null ? undefined : Number(count), typeof key === 'string' ? key : undefined)) return;
      return json(res, 200, {
        type: 'search',
        query: { original: url.searchParams.get('q') },
        web: {
          type: 'search',
          results: web.results.map((r) => ({ type: 'search_result', title: r.title, url: absolute(r.url), description: `<strong>${r.snippet}</strong>` })),
        },
      });
    }

    if (url.pathname.startsWith('/pages/')) {
      web.pageRequests.push(url.pathname);
      switch (url.pathname) {
        case '/pages/article.html':
          return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_HTML);
        case '/pages/huge.html':
          // Three megabytes, more than the 2 MB a page may have.
          res.writeHead(200, { 'content-type': 'text/html' });
          return void res.end(`<html><body><p>${'too large '.repeat(300_000)}</p></body></html>`);
        case '/pages/to-private':
          return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        case '/pages/photo.png':
          return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
        case '/pages/notes.txt':
          return void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Plain notes: the ferry leaves at 7.');
        case '/pages/moved':
          return void res.writeHead(301, { location: '/pages/article.html' }).end();
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  return web;
}
