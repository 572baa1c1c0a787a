import { expect, test, type Page, type Request } from '@playwright/test';
import { DESCRIPTION_TOO_LONG, FEEDBACK_DESCRIPTION_MAX_LENGTH, FEEDBACK_RECEIVED, type FeedbackType } from '../../../contract/feedback-constants';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, signInAndLand } from '../helpers/accounts';
import { feedbackMachine, feedbackPaths as paths } from './feedback.paths-model';
import { errorEnvelope, type Step } from './paths-support';

/**
 * The feedback form's generated paths (machines/feedback.machine.ts, the model in feedback.paths-model.ts), driven
 * through the real 'Submit Feedback' / 'Report an Issue' modal, opened from the profile menu of the chat sidebar.
 * The submission goes to the real server (POST /feedbacks/): a run against a deployment leaves its feedback and
 * reports there, one under the E2E_USER_EMAIL account and one under E2E_ADMIN_EMAIL, so the per-person limit (10 an
 * hour by default) lets QA run the paths ten times an hour. Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with a stub:
 * the server failing the submission (a 500).
 */
const FEEDBACKS = (url: URL) => url.pathname.endsWith('/api/v1/feedbacks/');
const isFeedbackPost = (r: Request) => r.method() === 'POST' && FEEDBACKS(new URL(r.url()));
/** The stub's failure: the server's sentence is what the person reads. */
const FAILURE = 'Internal Server Error';

const TITLE: Record<FeedbackType, string> = { feedback: 'Submit Feedback', report: 'Report an Issue' };
const DESCRIPTION: Record<FeedbackType, string> = { feedback: 'Tell us more', report: 'What went wrong?' };
/** The rating's label in the list (src/session/feedback-modal.tsx). */
const LEVEL_LABEL: Record<string, string> = { AVERAGE: 'Average', GOOD: 'Good' };

/** What the person has in the form: which kind is open, the rating, what is written. */
interface Form {
  kind: FeedbackType;
  level: string;
  description: string;
}

const dialog = (page: Page, kind: FeedbackType) => page.getByRole('dialog', { name: TITLE[kind] });
const rating = (page: Page, kind: FeedbackType) => dialog(page, kind).getByRole('button', { name: /Rating/ });
const descriptionBox = (page: Page, kind: FeedbackType) => dialog(page, kind).getByRole('textbox', { name: DESCRIPTION[kind] });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
const fits = (form: Form) => form.description.trim().length <= FEEDBACK_DESCRIPTION_MAX_LENGTH;

/** The form as a person sees it: its title, the rating (feedback only), what is written, no error under it. */
async function expectForm(page: Page, form: Form) {
  await expect(dialog(page, form.kind)).toBeVisible();
  if (form.kind === 'feedback') await expect(rating(page, form.kind)).toContainText(LEVEL_LABEL[form.level]!);
  else await expect(rating(page, form.kind)).toHaveCount(0);
  await expect(descriptionBox(page, form.kind)).toHaveValue(form.description);
  await expect(dialog(page, form.kind).getByText(DESCRIPTION_TOO_LONG)).toHaveCount(0);
}

/** A test's browser and what it has seen: the form as it should be, the feedback POSTs sent so far. */
interface Run {
  page: Page;
  form: Form;
  posts: Request[];
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page, form } = run;
  switch (event.type) {
    case 'feedback.open': {
      const kind = event.kind as FeedbackType;
      await page.getByRole('button', { name: 'Account details' }).first().click();
      await page.getByRole('button', { name: TITLE[kind] }).click();
      // Each open starts afresh: Average, nothing written.
      run.form = { kind, level: 'AVERAGE', description: '' };
      await expectForm(page, run.form);
      return;
    }
    case 'field.level': {
      const level = event.level as string;
      await rating(page, form.kind).click();
      await page.getByRole('option', { name: LEVEL_LABEL[level], exact: true }).click();
      form.level = level;
      await expect(rating(page, form.kind)).toContainText(LEVEL_LABEL[level]!);
      return;
    }
    case 'field.description':
      form.description = event.text as string;
      await descriptionBox(page, form.kind).fill(form.description);
      await expectForm(page, form);
      return;
    case 'feedback.submit': {
      const sent = run.posts.length;
      if (!fits(form)) {
        // Refused in the form with the server's own sentence; nothing is sent, what was written stays.
        await dialog(page, form.kind).getByRole('button', { name: 'Submit' }).click();
        await expect(dialog(page, form.kind).getByText(DESCRIPTION_TOO_LONG)).toBeVisible();
        await expect(descriptionBox(page, form.kind)).toHaveValue(form.description);
        expect(run.posts).toHaveLength(sent);
        return;
      }
      if (next?.type === 'xstate.error.actor.submit') {
        await page.route(FEEDBACKS, (route) =>
          route.request().method() === 'POST' ? route.fulfill(errorEnvelope(500, FAILURE)) : route.fallback(),
        );
      }
      const request = page.waitForRequest(isFeedbackPost);
      await dialog(page, form.kind).getByRole('button', { name: 'Submit' }).click();
      // A report never carries a rating; the description is trimmed, a blank one is none.
      expect((await request).postDataJSON()).toEqual({
        type: form.kind,
        level: form.kind === 'report' ? null : form.level,
        description: form.description.trim() || null,
      });
      return;
    }
    case 'xstate.done.actor.submit':
      await expect(toast(page, FEEDBACK_RECEIVED)).toBeVisible();
      await expect(dialog(page, form.kind)).toHaveCount(0);
      return;
    case 'xstate.error.actor.submit':
      // The server's sentence; the form stays open with what was written, ready to send again.
      await expect(toast(page, FAILURE)).toBeVisible();
      await expectForm(page, form);
      await expect(dialog(page, form.kind).getByRole('button', { name: 'Submit' })).toBeEnabled();
      await page.unroute(FEEDBACKS);
      return;
    case 'feedback.close': {
      const sent = run.posts.length;
      await dialog(page, form.kind).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page, form.kind)).toHaveCount(0);
      expect(run.posts).toHaveLength(sent);
      return;
    }
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

/** 'feedback.open(report) → field.description(too long) → feedback.submit': the two kinds' paths differ by payload. */
const stepName = (e: Step) => {
  if (e.type === 'feedback.open') return `${e.type}(${e.kind as string})`;
  if (e.type === 'field.level') return `${e.type}(${e.level as string})`;
  if (e.type === 'field.description') return `${e.type}(${(e.text as string).length > FEEDBACK_DESCRIPTION_MAX_LENGTH ? 'too long' : 'fits'})`;
  return e.type;
};

test.describe('feedback paths (generated from machines/feedback.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('feedback (e2e paths)', coverageOf(feedbackMachine, paths as never), paths.length));
  });

  // The paths whose submission the server saves, each under the next of the two people (see above).
  const saving = paths.filter((p) => p.events.some((e) => e.type === 'xstate.done.actor.submit'));
  const people = [
    { email: accounts.user, lands: /\/chat$/ },
    { email: accounts.admin, lands: /\/home$/ },
  ];
  for (const path of paths) {
    const person = people[Math.max(0, saving.indexOf(path)) % people.length]!;
    test(path.events.map(stepName).join(' → '), async ({ page }) => {
      const run: Run = { page, form: { kind: 'feedback', level: 'AVERAGE', description: '' }, posts: [] };
      page.on('request', (r) => {
        if (isFeedbackPost(r)) run.posts.push(r);
      });
      // The path starts with the form closed, on the person's first screen (the profile menu is in every layout).
      await signInAndLand(page, person.email, person.lands);
      for (const [i, event] of path.events.entries()) {
        await test.step(stepName(event), () => perform(run, event, path.events[i + 1]));
      }
    });
  }
});
