import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tooManyFeedback } from '../../contract/feedback-constants';
import {
  PROMPT_MAX_LENGTH,
  promptLibraryFull,
  promptLibraryTooLong,
  tooManyPromptSaves,
} from '../../contract/prompt-library-constants';
import { API, bearer, login } from './helpers/fixtures';
import { createTestApp, dbKind } from './helpers/test-app';

type Method = 'POST' | 'PUT' | 'DELETE';

/** An app with `env`, and the bearer headers of user@ and newhire@ (same organisation) and admin@. */
async function start(env: Record<string, string>) {
  const t = await createTestApp({ env });
  const me = bearer((await login(t.app, 'user@demo.local')).access_token);
  const colleague = bearer((await login(t.app, 'newhire@demo.local')).access_token);
  const admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
  const call = (method: Method, url: string, payload: object | undefined, headers: Record<string, string>) =>
    t.app.inject({ method, url: `${API}${url}`, payload, headers });
  return { t, me, colleague, admin, call };
}

const expect429 = (res: LightMyRequestResponse, window: number) => {
  expect(res.statusCode, res.body).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(window);
  return res.json().detail as string;
};

const promptOf = (length: number, tag = 'limits') => ({ prompt: 'p'.repeat(length), tags: [tag] });

describe(`feedback per person per hour (${dbKind})`, () => {
  let s: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    s = await start({ FEEDBACK_RATE_LIMIT_PER_USER: '3' });
  });
  afterAll(() => s.t.close());

  const send = (headers: Record<string, string>) =>
    s.call('POST', '/feedbacks/', { type: 'report', description: 'The export button does nothing' }, headers);

  it('takes 3 of a burst of 8 parallel reports and refuses the rest with 429, Retry-After and the sentence', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => send(s.me)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(5);
    for (const res of refused) {
      const detail = expect429(res, 3600);
      const minutes = Math.ceil(Number(res.headers['retry-after']) / 60);
      expect(detail).toBe(tooManyFeedback(`${minutes} minutes`));
    }
    expect(await s.t.db.selectFrom('feedback_submissions').select('id').execute()).toHaveLength(3);
  });

  it('counts each person separately', async () => {
    expect((await send(s.colleague)).statusCode).toBe(200);
    expect((await send(s.admin)).statusCode).toBe(200);
  });
});

describe(`prompt saves per person per minute (${dbKind})`, () => {
  let s: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    s = await start({ PROMPT_RATE_LIMIT_PER_USER: '4' });
  });
  afterAll(() => s.t.close());

  it('takes 4 of a burst of 10 parallel 20,000-character prompts and refuses the rest with 429 and the sentence', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => s.call('POST', '/prompt-libraries/', promptOf(PROMPT_MAX_LENGTH), s.me)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(4);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(6);
    for (const res of refused) expect(expect429(res, 60)).toBe(tooManyPromptSaves('1 minute'));
    expect(await s.t.db.selectFrom('prompt_library').select('id').execute()).toHaveLength(4);
  });

  it('counts edits too, but not deletions', async () => {
    const [saved] = await s.t.db.selectFrom('prompt_library').select('id').execute();
    expect(expect429(await s.call('PUT', `/prompt-libraries/${saved!.id}`, promptOf(10), s.me), 60)).toBe(tooManyPromptSaves('1 minute'));
    expect((await s.call('DELETE', `/prompt-libraries/${saved!.id}`, undefined, s.me)).statusCode).toBe(200);
  });

  it('counts each person separately', async () => {
    expect((await s.call('POST', '/prompt-libraries/', promptOf(PROMPT_MAX_LENGTH), s.colleague)).statusCode).toBe(200);
  });
});

describe(`the size of one person's prompt library (${dbKind})`, () => {
  let s: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    s = await start({ PROMPT_LIBRARY_MAX_PROMPTS: '3', PROMPT_LIBRARY_MAX_CHARS: '50000' });
  });
  afterAll(() => s.t.close());

  const save = (body: object, headers = s.me) => s.call('POST', '/prompt-libraries/', body, headers);
  const rowsOf = async (headers: Record<string, string>) => {
    const userId = (await s.t.app.inject({ method: 'GET', url: `${API}/users/me`, headers })).json().data.id as string;
    return s.t.db.selectFrom('prompt_library').select(['id', 'prompt']).where('user_id', '=', userId).execute();
  };
  const expect413 = (res: LightMyRequestResponse, detail: string) => {
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ detail, code: 'prompt_library_full' });
  };

  it('refuses a prompt past PROMPT_LIBRARY_MAX_PROMPTS with 413 and stores nothing', async () => {
    for (let i = 0; i < 3; i++) expect((await save(promptOf(10))).statusCode).toBe(200);
    const full = await save(promptOf(10));
    expect413(full, promptLibraryFull(3));
    expect(full.json().detail).toBe('Your prompt library is full (3 prompts). Delete prompts you no longer need to save new ones.');
    expect(await rowsOf(s.me)).toHaveLength(3);
    // Editing one of the 3 is still fine; deleting one makes room.
    const [first] = await rowsOf(s.me);
    expect((await s.call('PUT', `/prompt-libraries/${first!.id}`, promptOf(20), s.me)).statusCode).toBe(200);
    expect((await s.call('DELETE', `/prompt-libraries/${first!.id}`, undefined, s.me)).statusCode).toBe(200);
    expect((await save(promptOf(10))).statusCode).toBe(200);
  });

  it('refuses a save past PROMPT_LIBRARY_MAX_CHARS in all, new prompt or edit, leaving the library as it was', async () => {
    expect((await save(promptOf(PROMPT_MAX_LENGTH), s.colleague)).statusCode).toBe(200);
    expect((await save(promptOf(PROMPT_MAX_LENGTH), s.colleague)).statusCode).toBe(200);
    expect413(await save(promptOf(10_001), s.colleague), promptLibraryTooLong(50_000));
    expect(promptLibraryTooLong(50_000)).toBe(
      'Your prompt library is full (50,000 characters in all). Delete or shorten prompts to save this one.',
    );
    // Exactly up to the limit fits.
    const fits = await save(promptOf(10_000, 'short'), s.colleague);
    expect(fits.statusCode, fits.body).toBe(200);
    const id = fits.json().data.id as string;
    // An edit that grows it past the limit is refused and rolled back, tags included; one that shrinks it passes.
    expect413(await s.call('PUT', `/prompt-libraries/${id}`, { prompt: 'q'.repeat(10_001), tags: ['changed'] }, s.colleague), promptLibraryTooLong(50_000));
    const kept = (await s.t.app.inject({ method: 'GET', url: `${API}/prompt-libraries/${id}`, headers: s.colleague })).json().data;
    expect(kept).toMatchObject({ prompt: 'p'.repeat(10_000), tags: ['short'] });
    expect((await s.call('PUT', `/prompt-libraries/${id}`, promptOf(5_000), s.colleague)).statusCode).toBe(200);
    const rows = await rowsOf(s.colleague);
    expect(rows.reduce((sum, r) => sum + r.prompt.length, 0)).toBe(45_000);
  });

  it('lets no parallel burst go past PROMPT_LIBRARY_MAX_PROMPTS', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => save(promptOf(10), s.admin)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const res of results.filter((r) => r.statusCode !== 200)) expect413(res, promptLibraryFull(3));
    expect(await rowsOf(s.admin)).toHaveLength(3);
  });
});
