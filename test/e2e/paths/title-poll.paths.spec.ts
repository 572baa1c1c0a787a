import { expect, test, type Page, type Route } from '@playwright/test';
import { DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { MAX_TITLE_POLL_ATTEMPTS, TITLE_POLL_INTERVAL_MS } from '../../../machines/title-poll.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, signInAndLand } from '../helpers/accounts';
import { withinRateLimits } from '../helpers/rate-limits';
import { AFTER, titlePollMachine, titlePollPaths as paths } from './title-poll.paths-model';
import { ask, errorEnvelope, expectReplyComplete, signedInToken, unique, type Step } from './paths-support';

/**
 * The title poll's generated paths (machines/title-poll.machine.ts, the model in title-poll.paths-model.ts),
 * driven through the real chat: the poll starts after a new conversation's first exchange, and the person's part
 * is to wait — Playwright's clock moves the 20 s between checks on. Each check is the real fetch of the
 * conversation list's first page; the heading shows the title once a check finds it named.
 *
 * Generated locally and against a deployment alike, forced with a `page.route` stub on that fetch: a check that
 * finds the conversation not named yet (the real answer with the conversation's title put back to the default:
 * the offline responder names it right after the first exchange, a deployment's model when it likes) and a check
 * whose fetch fails (a 500). Giving up after 20 unnamed checks follows from them, ended by either. A check meant to
 * find it named waits first (through the API) until the server has named it: a deployment's model takes its time,
 * and its title's words are its own (only the local offline responder's are checked).
 *
 * Not generated: `poll.stop` and `failed`, which no browser can bring about (the product never sends `poll.stop`: the
 * screen stops the poll actor with stopChild when the person leaves; and a title poll does not stop on errors,
 * `stopOnError` is false in titlePollInput), so 6 of the 8 transitions are the most these paths can reach.
 *
 * Each test's conversation has a unique question and is deleted through the API at its end.
 */
const CONVERSATIONS = (url: URL) => url.pathname.endsWith('/api/v1/chat/conversations') && url.searchParams.get('page') === '1';
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** How the stub answers the next check: as the server does, as if not named yet, or failing. */
type Answer = 'real' | 'notYet' | 'error';

function answerFor(next: Step | undefined): Answer {
  if (next?.type === 'xstate.error.actor.check') return 'error';
  return next?.output === DEFAULT_CONVERSATION_TITLE ? 'notYet' : 'real';
}

/** What the path does, shortly: its checks' answers in order (20 of them on the way to giving up). */
function titleOf(events: Step[]): string {
  const answers = events.filter((e) => e.type !== AFTER).map((e) => (e.type === 'xstate.error.actor.check' ? 'fails' : e.output === DEFAULT_CONVERSATION_TITLE ? 'not named' : 'named'));
  const runs: string[] = [];
  for (let i = 0; i < answers.length; ) {
    let n = 1;
    while (answers[i + n] === answers[i]) n += 1;
    runs.push(n > 1 ? `${n}× ${answers[i]}` : answers[i]!);
    i += n;
  }
  return `checks every 20 s: ${runs.join(', ')}${answers.length === MAX_TITLE_POLL_ATTEMPTS ? ' (gives up)' : ''}`;
}

test.describe('title-poll paths (generated from machines/title-poll.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('title-poll (e2e paths)', coverageOf(titlePollMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(titleOf(path.events), async ({ page }) => {
      test.setTimeout(90_000);
      await signInAndLand(page, accounts.user, /\/chat$/);
      let answer: Answer = 'real';
      let checks = 0;
      let conversationId = '';
      await page.route(CONVERSATIONS, async (route: Route) => {
        if (answer === 'error') return route.fulfill(errorEnvelope(500, 'Internal Server Error'));
        const response = await route.fetch();
        const body = (await response.json()) as { data: { conversations: Array<{ id: string; title: string }> } };
        if (answer === 'notYet') {
          for (const c of body.data.conversations) if (c.id === conversationId) c.title = DEFAULT_CONVERSATION_TITLE;
        }
        return route.fulfill({ response, json: body });
      });
      await page.clock.install();
      await page.goto('/chat');
      const question = unique('Explain quarterly budgets');
      await ask(page, question);
      await expect(page).toHaveURL(/\/chat\?id=/);
      conversationId = new URL(page.url()).searchParams.get('id')!;
      const token = await signedInToken(page);
      const headers = { Authorization: `Bearer ${token}` };
      try {
        await expectReplyComplete(page);
        // Until a check finds its name, the new conversation is called what the server first called it.
        await expect(heading(page)).toHaveText(DEFAULT_CONVERSATION_TITLE);

        for (const [i, event] of path.events.entries()) {
          const next = path.events[i + 1];
          await test.step(event.type === AFTER ? '20 s later' : event.type, async () => {
            switch (event.type) {
              case AFTER: {
                answer = answerFor(next);
                if (answer === 'real') {
                  // The server names the conversation in its own time (a deployment's model): the person waits for it.
                  await expect
                    .poll(
                      async () => {
                        const res = await page.request.get(`/api/v1/chat/conversations/${conversationId}/messages`, { headers });
                        return res.ok() ? ((await res.json()) as { data: { conversation: { title: string } } }).data.conversation.title : DEFAULT_CONVERSATION_TITLE;
                      },
                      { timeout: 60_000 },
                    )
                    .not.toBe(DEFAULT_CONVERSATION_TITLE);
                }
                const checked = page.waitForResponse((r) => CONVERSATIONS(new URL(r.url())));
                await page.clock.fastForward(TITLE_POLL_INTERVAL_MS);
                await checked;
                checks += 1;
                return;
              }
              case 'xstate.done.actor.check':
                if (event.output === DEFAULT_CONVERSATION_TITLE) {
                  await expect(heading(page)).toHaveText(DEFAULT_CONVERSATION_TITLE);
                } else {
                  await expect(heading(page)).not.toHaveText(DEFAULT_CONVERSATION_TITLE);
                  await expect(heading(page)).not.toBeEmpty();
                  // The offline responder names it with the question's first words.
                  if (isLocalServer) await expect(heading(page)).toContainText('Explain quarterly budgets');
                }
                return;
              case 'xstate.error.actor.check':
                // A failed check is one attempt; nothing changes on screen and the poll goes on.
                await expect(heading(page)).toHaveText(DEFAULT_CONVERSATION_TITLE);
                return;
              default:
                throw new Error(`no browser step for ${event.type}`);
            }
          });
        }
        if (checks === MAX_TITLE_POLL_ATTEMPTS) {
          // Given up: no check comes any more, even with the conversation named meanwhile.
          answer = 'real';
          let later = 0;
          page.on('request', (r) => {
            if (CONVERSATIONS(new URL(r.url()))) later += 1;
          });
          await page.clock.fastForward(TITLE_POLL_INTERVAL_MS * 3);
          await expect(heading(page)).toHaveText(DEFAULT_CONVERSATION_TITLE);
          expect(later).toBe(0);
        }
      } finally {
        const deleted = await withinRateLimits(() => page.request.delete(`/api/v1/chat/conversations/${conversationId}`, { headers }));
        expect(deleted.ok()).toBe(true);
      }
    });
  }
});
