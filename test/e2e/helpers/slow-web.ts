import http from 'node:http';
import { SLOW_WEB_PAGE_TITLE, SLOW_WEB_SEARCH_MS } from './slow-web-page';

// The web as the local e2e server sees it (playwright.config.ts starts this beside it): a SearXNG instance that
// takes SLOW_WEB_SEARCH_MS to answer, as real searches take seconds, and the one page its results name. The chat
// shows 'Searching the web' meanwhile. `tsx test/e2e/helpers/slow-web.ts PORT`.

const port = Number(process.argv[2]);
const origin = `http://127.0.0.1:${port}`;
const page = `<!doctype html><html><head><title>${SLOW_WEB_PAGE_TITLE}</title></head>
<body><article><h1>Ferries</h1><p>The first ferry leaves the harbour at seven every morning, the last at nine at night.</p></article></body></html>`;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/health') return void res.end('ok');
  if (url.pathname === '/pages/ferries.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  if (url.pathname === '/searxng/search' && url.searchParams.get('format') === 'json') {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          query: url.searchParams.get('q'),
          results: [{ url: `${origin}/pages/ferries.html`, title: SLOW_WEB_PAGE_TITLE, content: 'Ferry times.', engine: 'e2e', score: 1 }],
        }),
      );
    }, SLOW_WEB_SEARCH_MS);
    return;
  }
  res.writeHead(404).end();
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
