import { expect, test, type Page, type Request } from '@playwright/test';
import { RATING_COMMENT_SAVED, type ReplyRating } from '../../../contract/feedback-constants';
import { nextRating } from '../../../machines/reply-rating.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInByApi } from '../helpers/accounts';
import { assistantMessages, errorEnvelope, unique, type Step } from './paths-support';
import { COMMENT, replyRatingMachine, replyRatingPaths as paths } from './reply-rating.paths-model';
import { seededConversation } from '../helpers/seed';

/**
 * The thumbs under a reply (machines/reply-rating.machine.ts, the model in reply-rating.paths-model.ts), driven
 * through the real buttons and comment dialog of a conversation made through the API. Saves go to the real server
 * (PUT /chat/messages/{id}/rating); forced in the browser with a stub, locally and against a deployment alike: the server failing a save (500).
 * A press while a save is in flight: the first save reaches the server and its answer is held in the browser (a
 * pass-through route); the second press shows at once and sends nothing until that answer comes, as it is, or as a
 * failure; then the second choice is saved.
 */
// The client adds a `t` timestamp query to every call: the stub matches the path with or without one.
const RATING = /\/api\/v1\/chat\/messages\/[^/]+\/rating(\?|$)/;
const isRatingPut = (r: Request) => r.method() === 'PUT' && RATING.test(new URL(r.url()).pathname);
const FAILURE = 'Internal Server Error';

interface Run {
  page: Page;
  /** What the buttons show, and what the server has. */
  shown: ReplyRating | null;
  saved: ReplyRating | null;
  comment: string;
  /** What the save in flight sends. */
  sending: ReplyRating | null;
  /** The save in flight is the comment's. */
  sendingComment: boolean;
  puts: Request[];
  /** Lets the held answer to the save in flight reach the page, as it is or as a failure. */
  releaseAnswer: ((fail: boolean) => void) | null;
}

const reply = (page: Page) => assistantMessages(page).last();
const thumb = (page: Page, rating: ReplyRating) => reply(page).getByRole('button', { name: rating === 'up' ? 'Good reply' : 'Bad reply' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'What went wrong?' });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

async function expectThumbs(page: Page, shown: ReplyRating | null) {
  await expect(thumb(page, 'up')).toHaveAttribute('aria-pressed', String(shown === 'up'));
  await expect(thumb(page, 'down')).toHaveAttribute('aria-pressed', String(shown === 'down'));
}

async function failNextSave(page: Page, next: Step | undefined) {
  if (next?.type !== 'xstate.error.actor.save') return;
  await page.route(RATING, (route) => (route.request().method() === 'PUT' ? route.fulfill(errorEnvelope(500, FAILURE)) : route.fallback()));
}

/** Holds the server's answer to the next save (the save itself reaches the server); returns its release. */
async function holdNextAnswer(page: Page) {
  let release!: (fail: boolean) => void;
  const released = new Promise<boolean>((resolve) => (release = resolve));
  await page.route(
    RATING,
    async (route) => {
      const response = await route.fetch();
      const fail = await released;
      await route.fulfill(fail ? errorEnvelope(500, FAILURE) : { response });
    },
    { times: 1 },
  );
  return release;
}

/** The held answer to the first save comes (as it is, or failed): the choice pressed meanwhile is sent now. */
async function answerHeldSave(run: Run, fail: boolean, next: Step | undefined) {
  const { page } = run;
  const release = run.releaseAnswer!;
  run.releaseAnswer = null;
  if (!fail) run.saved = run.sending;
  await failNextSave(page, next);
  const request = page.waitForRequest(isRatingPut);
  release(fail);
  expect((await request).postDataJSON()).toEqual({ rating: run.shown, comment: null });
  run.sending = run.shown;
  // A failure of the choice already changed says nothing; the newer one stays shown while it is saved.
  if (fail) await expect(toast(page, FAILURE)).toHaveCount(0);
  if (next?.type !== 'xstate.error.actor.save') await expectThumbs(page, run.shown);
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  switch (event.type) {
    case 'rating.choose': {
      const pressed = event.rating as ReplyRating;
      run.shown = nextRating(run.shown, pressed);
      run.comment = '';
      if (run.releaseAnswer) {
        // Pressed while a save is in flight: shown at once, sent only once that save has its answer.
        const sent = run.puts.length;
        await thumb(page, pressed).click();
        await expectThumbs(page, run.shown);
        expect(run.puts).toHaveLength(sent);
        return;
      }
      run.sendingComment = false;
      await failNextSave(page, next);
      // Pressed again while this save is in flight: the server gets it, its answer waits for the second press.
      if (next?.type === 'rating.choose') run.releaseAnswer = await holdNextAnswer(page);
      const request = page.waitForRequest(isRatingPut);
      await reply(page).hover();
      await thumb(page, pressed).click();
      const sent = await request;
      expect(sent.postDataJSON()).toEqual({ rating: run.shown, comment: null });
      run.sending = run.shown;
      // Shown at once, before the server answers (a stubbed failure answers at once: its step checks the revert).
      if (next?.type !== 'xstate.error.actor.save') await expectThumbs(page, run.shown);
      return;
    }
    case 'xstate.done.actor.save':
      if (run.releaseAnswer) return answerHeldSave(run, false, next);
      if (run.sendingComment) {
        await expect(toast(page, RATING_COMMENT_SAVED)).toBeVisible();
        await expect(dialog(page)).toHaveCount(0);
        run.comment = '';
      } else {
        run.saved = run.sending;
        // A thumbs down asks what went wrong.
        await expect(dialog(page)).toHaveCount(run.shown === 'down' ? 1 : 0);
      }
      await expectThumbs(page, run.saved);
      return;
    case 'xstate.error.actor.save':
      if (run.releaseAnswer) return answerHeldSave(run, true, next);
      await expect(toast(page, FAILURE)).toBeVisible();
      if (run.sendingComment) {
        // The comment stays, ready to send again.
        await expect(dialog(page).getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue(run.comment);
      } else {
        run.shown = run.saved;
        await expect(dialog(page)).toHaveCount(0);
      }
      await expectThumbs(page, run.shown);
      await page.unroute(RATING);
      return;
    case 'comment.edit':
      run.comment = event.text as string;
      await dialog(page).getByRole('textbox', { name: 'Comment (optional)' }).fill(run.comment);
      return;
    case 'comment.send': {
      run.sendingComment = true;
      await failNextSave(page, next);
      const request = page.waitForRequest(isRatingPut);
      await dialog(page).getByRole('button', { name: 'Send' }).click();
      expect((await request).postDataJSON()).toEqual({ rating: 'down', comment: COMMENT });
      return;
    }
    case 'comment.skip': {
      const sent = run.puts.length;
      await dialog(page).getByRole('button', { name: 'Skip' }).click();
      await expect(dialog(page)).toHaveCount(0);
      await expectThumbs(page, 'down');
      expect(run.puts).toHaveLength(sent);
      run.comment = '';
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

const stepName = (e: Step) => (e.type === 'rating.choose' ? `${e.type}(${e.rating as string})` : e.type);

test.describe('reply rating paths (generated from machines/reply-rating.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('reply-rating (e2e paths)', coverageOf(replyRatingMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      test.setTimeout(120_000);
      await signInByApi(page, accounts.user);
      const id = await seededConversation(page.request, unique('Rate me'));
      await page.goto(`/chat?id=${id}`);
      await expect(reply(page)).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
      const run: Run = { page, shown: null, saved: null, sending: null, comment: '', sendingComment: false, puts: [], releaseAnswer: null };
      page.on('request', (r) => {
        if (isRatingPut(r)) run.puts.push(r);
      });
      await expectThumbs(page, null);
      for (const [i, event] of path.events.entries()) {
        await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
      }
    });
  }
});
