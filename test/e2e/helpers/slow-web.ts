import { startFakeWeb } from '../../server/helpers/fake-search';

// The web as the local e2e server sees it (playwright.config.ts starts this beside it): the server tests' fake web
// (SearXNG and the pages its results name), whose searches take SLOW_WEB_SEARCH_MS as real ones take seconds. The
// chat shows 'Searching the web' meanwhile. `tsx test/e2e/helpers/slow-web.ts PORT`.

// 3 s: with 1.5 s, on two cores busy with the suite, 'Searching the web' was sometimes gone before a test looked for it
// (the generated chat-send path with a stream status failed twice in a row in a CI-like run).
const SLOW_WEB_SEARCH_MS = 3_000;

await startFakeWeb({ port: Number(process.argv[2]), searchDelayMs: SLOW_WEB_SEARCH_MS });
