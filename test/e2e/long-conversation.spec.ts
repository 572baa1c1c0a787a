import { expect, test, type Page, type Route } from '@playwright/test';
import { numberedLabel, seedConversation } from '../bench/seed-conversation';
import { accounts, isLocalServer, localDataDir, signInAndLand } from './helpers/accounts';
import { whileLocked } from './helpers/seed';

// A conversation longer than one page (50 messages), written straight into the local server's database: only a
// local run can seed it, so the test exists only there.
const COUNT = 120;

const scroller = (page: Page) => page.getByTestId('message-scroller');

interface Drawn {
  /** The numbers (1-based) of the messages in the DOM. */
  numbers: number[];
  /** The topmost message on screen and how far below the scroller's top it starts (px). */
  top: { n: number; y: number } | null;
  scrollTop: number;
}

/** What the virtualised list has drawn, read from the numbered labels the messages start with. */
function drawn(page: Page): Promise<Drawn> {
  return scroller(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const numbers: number[] = [];
    let top: { n: number; y: number } | null = null;
    for (const article of Array.from(el.querySelectorAll('article'))) {
      const n = Number(/Message (\d+) of/.exec(article.textContent ?? '')?.[1]);
      if (!n) continue;
      numbers.push(n);
      const r = article.getBoundingClientRect();
      if (r.bottom > box.top && r.top < box.bottom && (top === null || r.top - box.top < top.y)) top = { n, y: r.top - box.top };
    }
    return { numbers, top, scrollTop: el.scrollTop };
  });
}

/** How far below the scroller's top message `n` starts (px). */
function topOf(page: Page, n: number): Promise<number> {
  return scroller(page).evaluate((el, label) => {
    const article = Array.from(el.querySelectorAll('article')).find((a) => a.textContent?.includes(label));
    if (!article) throw new Error(`${label} is not drawn`);
    return article.getBoundingClientRect().top - el.getBoundingClientRect().top;
  }, numberedLabel(n, COUNT));
}

/** Waits until the list has stopped moving (wheel scrolling and re-measured rows settle over a few frames). */
async function settled(page: Page): Promise<Drawn> {
  let last = await drawn(page);
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(100);
    const next = await drawn(page);
    if (next.scrollTop === last.scrollTop && next.top?.y === last.top?.y) return next;
    last = next;
  }
  return last;
}

if (isLocalServer) {
  test('a long conversation opens at its last message and loads earlier ones as the reader scrolls up, in place', async ({ page }) => {
    // Seeding, signing in and scrolling 120 messages through: more than the default on a busy machine.
    test.setTimeout(180_000);
    const { id } = await whileLocked(() => seedConversation(localDataDir, accounts.user, COUNT, { numbered: true }));
    await signInAndLand(page, accounts.user, /\/chat$/);

    // Earlier pages wait until the test has noted where the reader is (then they are answered at once).
    const earlier: Route[] = [];
    let hold = true;
    const isEarlierPage = (url: URL) => url.pathname.endsWith(`/chat/conversations/${id}/messages`) && url.searchParams.has('before');
    await page.route(isEarlierPage, (route) => (hold ? void earlier.push(route) : route.continue()));

    const latest = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/chat/conversations/${id}/messages`) && !new URL(r.url()).searchParams.has('before'));
    await page.goto(`/chat?id=${id}`);
    const firstPage = (await (await latest).json()) as { data: { messages: unknown[]; earlier_cursor: string | null } };
    expect(firstPage.data.messages).toHaveLength(50);
    expect(firstPage.data.earlier_cursor).not.toBeNull();
    // It opens at the end: the last message is on screen.
    await expect(page.getByText(numberedLabel(COUNT, COUNT))).toBeInViewport({ timeout: 30_000 });

    // Scrolling up as a reader does, until the list asks for the messages before the first page.
    await scroller(page).hover();
    for (let i = 0; i < 200 && earlier.length === 0; i++) await page.mouse.wheel(0, -400);
    await expect.poll(() => earlier.length).toBe(1);
    const before = await settled(page);
    expect(before.top).not.toBeNull();
    expect(Math.min(...before.numbers)).toBe(COUNT - 49);

    hold = false;
    await earlier[0]!.continue();
    await expect(page.getByText('Loading earlier messages')).toHaveCount(0);
    const after = await settled(page);
    // Earlier messages are drawn above, and the message at the top of the screen stayed where it was.
    expect(Math.min(...after.numbers)).toBeLessThan(COUNT - 49);
    expect(Math.abs((await topOf(page, before.top!.n)) - before.top!.y)).toBeLessThanOrEqual(3);

    // Further up, page by page, to the first message.
    for (let i = 0; i < 300; i++) {
      const now = await drawn(page);
      if (now.numbers.includes(1) && now.scrollTop === 0) break;
      await page.mouse.wheel(0, -1000);
    }
    await expect(page.getByText(numberedLabel(1, COUNT))).toBeInViewport({ timeout: 15_000 });

    // Every message can be reached, from the top down to the end.
    const seen = new Set<number>();
    for (let i = 0; i < 400 && seen.size < COUNT; i++) {
      (await drawn(page)).numbers.forEach((n) => seen.add(n));
      // A screen at a time: the rows drawn beyond the screen's edges overlap the next step.
      await scroller(page).evaluate((el) => (el.scrollTop += el.clientHeight));
      await page.waitForTimeout(50);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
  });
}
