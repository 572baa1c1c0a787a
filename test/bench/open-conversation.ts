import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { launchBenchBrowser, launchBenchProfile } from './browser';
import { BENCH_DEMO_PASSWORD, startServer } from './server-process';
import { LAST_MESSAGE_MARKER, seedConversation } from './seed-conversation';
import { ratioOf, reportGoal } from './goal-line';
import { median } from './median';

// Opening a long conversation: a 1,000-message conversation seeded into the bench server's database, opened
// at /chat?id=… in headless Chromium, timed from navigation start until its last message is on screen. The chat
// asks for the latest page of messages only (GET .../messages, 50 a page); earlier ones load on scrolling up.

/**
 * Page loads measured per browser. Single loads here range over 120 ms (252 to 372 ms in one run): the median of 5
 * moved by 40 ms between runs of the same code, so the goal's figure takes 15.
 */
export const OPEN_RUNS = 15;
/**
 * The goal (issue 29): the median time to the last message on screen at most this many times the median time to an
 * empty chat screen, measured in the same run (a fixed 300 ms held on one machine and not on the next).
 */
export const OPEN_RATIO_GOAL = 1.3;
/** The demo account the bench signs in as and seeds the conversation for. */
export const EMAIL = 'user@demo.local';
/** The seeded conversation's length. */
export const MESSAGE_COUNT = 1_000;
/** The last message counts as settled once its position has not changed for this long. */
const SETTLE_MS = 500;

export interface PageTimes {
  /** The chat screen (header, spinner or list) first drawn: the app has booted and opened the route. */
  chatShown: number | null;
  /** The first message article drawn (at the virtualiser's estimated position). */
  firstArticle: number | null;
  /** performance.now() of the page (ms since its navigation started) when the end of the last message was first on screen. */
  firstVisible: number;
  /** ... when it was last moved (re-measured rows, scroll corrections) before staying put for SETTLE_MS. */
  settled: number;
  articles: number;
  timeOrigin: number;
}

/** Read in the page once it is done (Navigation and Resource Timing, ms since navigation start). */
interface BootTimes {
  /** The document received. */
  htmlMs: number;
  /** The app's entry script received (from the HTTP cache here). */
  entryMs: number;
  /** DOMContentLoaded: the entry has run (module scripts run before it), so the router has asked for the route's code. */
  appStartedMs: number;
  /** The chat screen's own chunk received (preloaded, or asked for by the router). */
  chatCodeMs: number;
}

export interface OpenRun extends BootTimes {
  chatShownMs: number;
  firstArticleMs: number;
  visibleMs: number;
  settledMs: number;
  articles: number;
  /** GET .../messages: when it was sent (ms after navigation start), how long it took, bytes on the wire, messages. */
  apiStartMs: number;
  apiMs: number;
  apiBytes: number;
  apiMessages: number;
}

/**
 * Runs in the page before any of its scripts: watches every frame for the end of the last message inside the
 * message scroller's visible area, and records when it first appeared and when it stopped moving.
 */
export function watchLastMessage({ marker, settleMs, report }: { marker: string; settleMs: number; report: string }) {
  let firstVisible: number | null = null;
  let chatShown: number | null = null;
  let firstArticle: number | null = null;
  let lastChange = 0;
  let lastKey = '';
  const tick = () => {
    const now = performance.now();
    const articles = document.querySelectorAll('article[aria-label="Your message"], article[aria-label="Assistant message"]');
    const last = articles[articles.length - 1];
    if (chatShown === null && document.querySelector('section[aria-label="Chat"]')) chatShown = now;
    if (firstArticle === null && last) firstArticle = now;
    let key = 'absent';
    let visible = false;
    if (last?.textContent?.includes(marker)) {
      const r = last.getBoundingClientRect();
      const box = document.querySelector('[data-testid="message-scroller"]')?.getBoundingClientRect() ?? { top: 0, bottom: innerHeight };
      // The end of the message (the marker is its last line) lies inside the scroller's visible part.
      visible = r.height > 0 && r.bottom > box.top && r.bottom <= box.bottom + 2;
      key = visible ? `${Math.round(r.top)}:${Math.round(r.bottom)}` : 'hidden';
    }
    if (visible && firstVisible === null) firstVisible = now;
    if (key !== lastKey) {
      lastKey = key;
      lastChange = now;
    }
    if (visible && firstVisible !== null && now - lastChange >= settleMs) {
      const done: PageTimes = { chatShown, firstArticle, firstVisible, settled: lastChange, articles: articles.length, timeOrigin: performance.timeOrigin };
      console.log(`${report}${JSON.stringify(done)}`);
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The empty chat screen's heading (src/features/chat/chat-page.tsx): drawn once /chat, with no conversation, is up. */
export const EMPTY_CHAT_HEADING = 'How can I help you today?';

/**
 * Runs in the page before any of its scripts (the reference of the goal): reports the first frame in which the empty
 * chat screen's heading and its message box are on screen, as ms since navigation start.
 */
export function watchEmptyChat({ heading, report }: { heading: string; report: string }) {
  const tick = () => {
    const h2 = [...document.querySelectorAll('h2')].find((h) => h.textContent === heading);
    const box = document.querySelector('textarea');
    if (h2 && box && h2.getBoundingClientRect().height > 0 && box.getBoundingClientRect().height > 0) {
      console.log(`${report}${JSON.stringify({ shown: performance.now() })}`);
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/**
 * A function as page source. tsx (esbuild, keepNames) wraps inner functions in `__name(...)`, a helper that
 * exists only in Node: a local no-op stands in for it in the page.
 */
export function initScript<A>(fn: (arg: A) => void, arg: A): string {
  return `(() => { const __name = (f) => f; (${fn.toString()})(${JSON.stringify(arg)}); })();`;
}

/** Runs in the page (serialised: no named inner functions, see initScript). */
function readBootTimes(): BootTimes {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const entryFile = document.querySelector<HTMLScriptElement>('script[data-entry]')?.dataset.entry;
  const entrySrc = entryFile && new URL(`/${entryFile}`, location.href).href;
  return {
    htmlMs: nav?.responseEnd ?? NaN,
    entryMs: resources.find((e) => e.name === entrySrc)?.responseEnd ?? NaN,
    appStartedMs: nav?.domContentLoadedEventStart ?? NaN,
    chatCodeMs: resources.find((e) => /\/assets\/chat-page-[^/]+\.js$/.test(e.name))?.responseEnd ?? NaN,
  };
}

/**
 * How the page reports its times: a console message. Waiting with page.waitForFunction would inject Playwright's
 * own script into the page while it boots, whose evaluation took ~300 ms of the main thread in a trace (time no
 * visitor's browser spends), and poll the page meanwhile.
 */
const REPORT_PREFIX = 'open-bench:';

/** Signs the bench's user in through the sign-in screen of `context`: its session (local storage) is then a returning user's. */
async function signIn(context: BrowserContext, serverUrl: string): Promise<BrowserContext> {
  const login = await context.newPage();
  const problems: string[] = [];
  login.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  login.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  try {
    await login.goto(`${serverUrl}/login`);
    await login.getByLabel('Email').fill(EMAIL);
    await login.getByLabel('Password').fill(BENCH_DEMO_PASSWORD);
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();
    await login.waitForURL(/\/chat$/, { timeout: 30_000 });
  } catch (err) {
    const text = await login.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no body)');
    throw new Error(`signing in failed at ${login.url()}: ${[...problems, `page text: ${text.slice(0, 300)}`].join('; ')}`, { cause: err });
  }
  await login.close();
  return context;
}

const VIEWPORT = { width: 1280, height: 800 };

/** A private window of `browser`, signed in: its HTTP cache is warm once the sign-in has loaded the app. */
export async function signedInContext(browser: Browser, serverUrl: string): Promise<BrowserContext> {
  return signIn(await browser.newContext({ serviceWorkers: 'block', viewport: VIEWPORT }), serverUrl);
}

/** A browser with a profile of its own (browser.ts, launchBenchProfile), signed in. Close it when done. */
export async function signedInProfile(executablePath: string, serverUrl: string): Promise<BrowserContext> {
  return signIn(await launchBenchProfile(executablePath, VIEWPORT), serverUrl);
}

/**
 * Loads before the measured ones, not counted: a returning visitor's browser has opened the app before (the first
 * loads in a new profile took 310–330 ms here, the later ones about 280 ms).
 */
export const WARMUP_LOADS = 2;

const isMessagesCall = (url: string) => /\/api\/v1\/chat\/conversations\/[^/]+\/messages$/.test(new URL(url).pathname);

/** One fresh page load of the conversation (a new tab: new document, new JS heap; the context's session and caches). */
async function openOnce(context: BrowserContext, serverUrl: string, conversationId: string): Promise<OpenRun> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: initScript(watchLastMessage, { marker: LAST_MESSAGE_MARKER, settleMs: SETTLE_MS, report: REPORT_PREFIX }) });
    const reported = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(REPORT_PREFIX), timeout: 60_000 });
    reported.catch(() => undefined);
    const finished: Promise<Request> = page.waitForEvent('requestfinished', { predicate: (r) => isMessagesCall(r.url()), timeout: 60_000 });
    // Awaited below; if the run fails first, closing the page rejects it, which must not crash the bench.
    finished.catch(() => undefined);
    await page.goto(`${serverUrl}/chat?id=${encodeURIComponent(conversationId)}`, { waitUntil: 'commit' });
    const times = JSON.parse((await reported).text().slice(REPORT_PREFIX.length)) as PageTimes;
    const boot = await page.evaluate(readBootTimes);
    const request = await finished;
    const timing = request.timing();
    const sizes = await request.sizes();
    const response = await request.response();
    if (request.failure() || response?.status() !== 200) throw new Error(`GET ${request.url()} failed`);
    const body = (await response.json()) as { data: { messages: unknown[] } };
    return {
      ...boot,
      chatShownMs: times.chatShown ?? NaN,
      firstArticleMs: times.firstArticle ?? NaN,
      visibleMs: times.firstVisible,
      settledMs: times.settled,
      articles: times.articles,
      apiStartMs: timing.startTime - times.timeOrigin,
      apiMs: timing.responseEnd,
      apiBytes: sizes.responseBodySize,
      apiMessages: body.data.messages.length,
    };
  } finally {
    await page.close();
  }
}

/** One fresh page load of the empty chat screen (/chat with no conversation): ms until it is drawn. */
async function openEmptyOnce(context: BrowserContext, serverUrl: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: initScript(watchEmptyChat, { heading: EMPTY_CHAT_HEADING, report: REPORT_PREFIX }) });
    const reported = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(REPORT_PREFIX), timeout: 60_000 });
    reported.catch(() => undefined);
    await page.goto(`${serverUrl}/chat`, { waitUntil: 'commit' });
    return (JSON.parse((await reported).text().slice(REPORT_PREFIX.length)) as { shown: number }).shown;
  } finally {
    await page.close();
  }
}

/**
 * The conversation's loads, each followed by a load of the empty chat screen when `withEmpty` (the goal's
 * reference: both in the same browser, taking turns, so that the machine's load falls on both alike).
 */
async function openRuns(context: BrowserContext, serverUrl: string, conversationId: string, withEmpty = false) {
  for (let i = 0; i < WARMUP_LOADS; i++) {
    await openOnce(context, serverUrl, conversationId);
    if (withEmpty) await openEmptyOnce(context, serverUrl);
  }
  const runs: OpenRun[] = [];
  const emptyMs: number[] = [];
  for (let i = 0; i < OPEN_RUNS; i++) {
    runs.push(await openOnce(context, serverUrl, conversationId));
    if (withEmpty) emptyMs.push(await openEmptyOnce(context, serverUrl));
  }
  return { runs, emptyMs };
}

/**
 * The goal's figure is a returning visitor's: a browser with its own profile. The same loads in a private window
 * (nothing but the HTTP cache kept) are printed beside it, for what a browser that forgets costs.
 */
export async function measureOpenConversation(executablePath: string) {
  const server = await startServer(0);
  try {
    const seedStarted = performance.now();
    const seeded = await seedConversation(server.dataDir, EMAIL, MESSAGE_COUNT);
    const seedMs = performance.now() - seedStarted;

    const profile = await signedInProfile(executablePath, server.url);
    let measured: Awaited<ReturnType<typeof openRuns>>;
    try {
      measured = await openRuns(profile, server.url, seeded.id, true);
    } finally {
      await profile.close();
    }
    const browser = await launchBenchBrowser(executablePath);
    try {
      const privateRuns = (await openRuns(await signedInContext(browser, server.url), server.url, seeded.id)).runs;
      return { runs: measured.runs, emptyMs: measured.emptyMs, privateRuns, seeded, seedMs };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

/** Prints the section of `npm run bench`. */
export function printOpenConversation({ runs, emptyMs, privateRuns, seeded, seedMs }: Awaited<ReturnType<typeof measureOpenConversation>>) {
  const ms = (n: number) => `${Math.round(n)} ms`;
  const visible = median(runs.map((r) => r.visibleMs));
  const api = median(runs.map((r) => r.apiMs));
  const kb = median(runs.map((r) => r.apiBytes)) / 1024;
  const articles = Math.max(...runs.map((r) => r.articles));
  console.log(
    `\nOpen a long conversation (${seeded.messages.toLocaleString('en-GB')} messages, ${(seeded.chars / 1024).toFixed(0)} KB of text, ` +
      `~${Math.round(seeded.words / seeded.messages)} words each; seeded in ${ms(seedMs)}), ${runs.length} fresh page loads after ${WARMUP_LOADS} uncounted, ` +
      `signed in, in a browser with its own profile as a returning visitor's is (HTTP cache and all Chromium keeps of earlier visits):`,
  );
  const fetched = Math.max(...runs.map((r) => r.apiMessages));
  const empty = median(emptyMs);
  console.log(
    `  open a 1,000-message conversation: median ${ms(visible)} (API ${ms(api)}, ${kb.toFixed(0)} KB, the latest ${fetched} messages), ` +
      `${articles} articles in the DOM; the empty chat screen (/chat, loads taking turns with these): median ${ms(empty)}`,
  );
  reportGoal({
    what: 'open a 1,000-message conversation',
    measured: ms(visible),
    reference: `empty chat screen ${ms(empty)}`,
    ratio: ratioOf(visible, empty),
    goal: `ratio <= ${OPEN_RATIO_GOAL}`,
    pass: visible <= OPEN_RATIO_GOAL * empty,
  });
  const at = (pick: (r: OpenRun) => number) => ms(median(runs.map(pick)));
  console.log(
    `  median timeline from navigation start: document ${at((r) => r.htmlMs)}, app entry loaded ${at((r) => r.entryMs)}, ` +
      `app started (DOMContentLoaded) ${at((r) => r.appStartedMs)}, chat screen code loaded ${at((r) => r.chatCodeMs)}, ` +
      `messages requested ${at((r) => r.apiStartMs)}, chat screen drawn ${at((r) => r.chatShownMs)}, ` +
      `response complete ${at((r) => r.apiStartMs + r.apiMs)}, first messages drawn ${at((r) => r.firstArticleMs)}, last message visible ${ms(visible)}, ` +
      `settled (not moved for ${SETTLE_MS} ms) ${at((r) => r.settledMs)}`,
  );
  console.log(`  empty chat screen per run: ${emptyMs.map((t) => Math.round(t)).join(', ')} ms`);
  console.log(
    `  per run (visible / settled / API): ${runs.map((r) => `${Math.round(r.visibleMs)} / ${Math.round(r.settledMs)} / ${Math.round(r.apiMs)}`).join(', ')} ms`,
  );
  console.log(
    `  the same in a private window (only the HTTP cache kept): median ${ms(median(privateRuns.map((r) => r.visibleMs)))}, ` +
      `chat screen drawn ${ms(median(privateRuns.map((r) => r.chatShownMs)))}; per run ${privateRuns.map((r) => Math.round(r.visibleMs)).join(', ')} ms`,
  );
}

// `npx tsx test/bench/open-conversation.ts` runs this section alone (needs a built dist/).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  printOpenConversation(await measureOpenConversation(chrome));
}
