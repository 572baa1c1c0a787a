import { test, type APIResponse, type Page } from '@playwright/test';

// A deployment keeps its per-person limits (prompt saves 20 a minute, messages 30 a minute by default), and a
// staging run signs everything in as the same four people from several workers. The product's answer to a person
// over a limit is a 429 naming the wait (Retry-After); the paths are not about that, so a call a path only needs
// made waits as the person would and goes again. Locally the server's limits are raised (playwright.config.ts) and
// none of this waits.

/** Longest wait one 429 may ask for before the path gives up on it (the limits' windows are a minute). */
const MAX_WAIT_S = 65;

/** The wait a 429 names, in ms, or null when it is not a 429 the run should wait out. */
function waitOf(status: number, retryAfter: string | undefined): number | null {
  if (status !== 429) return null;
  const seconds = Number(retryAfter ?? '');
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_WAIT_S ? seconds * 1000 : null;
}

/** The test's time allowance grows by the wait, so a path that waits out a limit is not failed for time. */
async function waitOut(ms: number) {
  test.info().setTimeout(test.info().timeout + ms + 5_000);
  await new Promise((resolve) => setTimeout(resolve, ms + 250));
}

/** An API call of a path's set-up or clean-up, sent again after the wait a 429 names. */
export async function withinRateLimits(send: () => Promise<APIResponse>): Promise<APIResponse> {
  for (;;) {
    const response = await send();
    const wait = waitOf(response.status(), response.headers()['retry-after']);
    if (wait === null) return response;
    await waitOut(wait);
  }
}

/**
 * The same for what the app itself sends while a path runs (a save pressed in a form): a request to `url` that the
 * deployment answers with a 429 is held, sent again after the named wait, and only its final answer reaches the page.
 * Only against a deployment: a route turns the page's HTTP cache off, and locally nothing is limited.
 */
export async function waitOutRateLimits(page: Page, url: (url: URL) => boolean, method: string): Promise<void> {
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    for (;;) {
      const response = await route.fetch();
      const wait = waitOf(response.status(), response.headers()['retry-after']);
      if (wait === null) return route.fulfill({ response });
      await waitOut(wait);
    }
  });
}
