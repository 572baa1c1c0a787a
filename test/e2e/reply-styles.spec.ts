import { expect, test, type Locator, type Page } from '@playwright/test';
import { accounts, isLocalServer, signInByApi } from './helpers/accounts';
import { openSeededConversation } from './helpers/seed';
import { assistantMessages } from './paths/paths-support';

// What a person sees of a reply: its markdown styled (issue 28). The reply stylesheet and the code colours come with
// lazily loaded screens; once they were silently dropped from the build and replies showed as plain text, which no
// test noticed because every word was still there. These read the computed styles, and compare a reference reply
// with screenshots kept in the repository (test/e2e/reply-styles.spec.ts-snapshots/; README: how to update them).
//
// The reference reply is the offline demo responder's (server/llm/offline.ts): a heading, nested lists, a quote, a
// table, links, a long address and a code block, seeded as a finished conversation (test/e2e/helpers/seed.ts; how a
// reply streams is chat.spec's). Against a deployment a real model answers: these run locally only.

/** Fixed words: the reply quotes the question, and the screenshots must not change from run to run. */
const QUESTION = 'What can a reply show?';

/** The styles that make each part of a reply read as what it is. */
async function replyStyles(reply: Locator) {
  return reply.evaluate((root) => {
    const one = (selector: string) => {
      const element = root.querySelector(selector);
      if (!element) throw new Error(`the reply has no ${selector}`);
      return getComputedStyle(element);
    };
    const paragraph = one('.markdown p');
    const code = root.querySelector('pre code');
    const token = root.querySelector('pre code .hljs-comment');
    return {
      bodySize: parseFloat(paragraph.fontSize),
      headingSize: parseFloat(one('.markdown h2').fontSize),
      headingWeight: Number(one('.markdown h2').fontWeight),
      bullets: one('.markdown ul').listStyleType,
      numbers: one('.markdown ul ol').listStyleType,
      nestedIndent: parseFloat(one('.markdown ul ol').paddingLeft),
      quoteBar: `${one('.markdown blockquote').borderLeftWidth} ${one('.markdown blockquote').borderLeftStyle}`,
      cellBorder: `${one('.markdown td').borderTopWidth} ${one('.markdown td').borderTopStyle}`,
      linkColour: one('.markdown a[href]').color,
      linkUnderline: one('.markdown a[href]').textDecorationLine,
      textColour: paragraph.color,
      codeColour: code ? getComputedStyle(code).color : null,
      tokenColour: token ? getComputedStyle(token).color : null,
    };
  });
}

async function askReference(page: Page) {
  await signInByApi(page, accounts.user);
  await openSeededConversation(page, QUESTION);
  const reply = assistantMessages(page).last();
  // The code block's colours arrive with their own chunk, after the text.
  await expect(reply.locator('pre code .hljs-comment')).toBeVisible();
  return reply;
}

if (isLocalServer) test.describe('a reply is styled as markdown', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`headings, lists, quotes, tables, links and code read as such (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      // Tall enough for the whole conversation: a scrolled reply would be pictured under the sticky chat header.
      await page.setViewportSize({ width: 1280, height: 1600 });
      const reply = await askReference(page);
      const styles = await replyStyles(reply);
      expect(styles.headingSize).toBeGreaterThan(styles.bodySize * 1.1);
      expect(styles.headingWeight).toBeGreaterThanOrEqual(600);
      expect(styles.bullets).toBe('disc');
      expect(styles.numbers).toBe('decimal');
      expect(styles.nestedIndent).toBeGreaterThanOrEqual(16);
      expect(styles.quoteBar).toBe('4px solid');
      expect(styles.cellBorder).toBe('1px solid');
      expect(styles.linkColour).not.toBe(styles.textColour);
      expect(styles.linkUnderline).toBe('underline');
      expect(styles.tokenColour).not.toBeNull();
      expect(styles.tokenColour).not.toBe(styles.codeColour);

      await page.mouse.move(0, 0);
      await expect(reply).toHaveScreenshot(`reference-reply-${scheme}.png`, { animations: 'disabled', caret: 'hide', maxDiffPixelRatio: 0.02 });
    });
  }

  test('nothing runs off the side of a phone, not even a long address', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const reply = await askReference(page);
    const overflow = await reply.evaluate((root) => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      reply: root.scrollWidth - root.clientWidth,
      // Every paragraph (the long address is in one) fits the reply's column.
      paragraphs: [...root.querySelectorAll('.markdown p')].map((p) => p.scrollWidth - p.clientWidth),
    }));
    expect(overflow.page).toBeLessThanOrEqual(0);
    expect(overflow.reply).toBeLessThanOrEqual(0);
    expect(Math.max(...overflow.paragraphs)).toBeLessThanOrEqual(0);
  });

  test('a shared conversation shows the reply styled too', async ({ page }) => {
    const reply = await askReference(page);
    await expect(reply).toBeVisible();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const link = page.getByRole('dialog', { name: 'Share Conversation' }).getByRole('textbox', { name: 'Share link' });
    await expect(link).toHaveValue(/\/share\//);
    await page.goto(new URL(await link.inputValue()).pathname);
    const shared = page.getByRole('article', { name: 'Shared reply' });
    await expect(shared.locator('pre code .hljs-comment')).toBeVisible();
    const styles = await replyStyles(shared);
    expect(styles.bullets).toBe('disc');
    expect(styles.cellBorder).toBe('1px solid');
    expect(styles.headingSize).toBeGreaterThan(styles.bodySize * 1.1);
    expect(styles.tokenColour).not.toBe(styles.codeColour);
  });
});
