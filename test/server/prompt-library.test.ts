import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { promptEntry, promptList, type PromptEntry } from '../../contract/prompt-library';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`the prompt library (${dbKind})`, () => {
  let t: TestApp;
  let mine: Record<string, string>;
  /** Another user of the same organisation. */
  let colleague: Record<string, string>;
  /** A user of another organisation. */
  let stranger: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    mine = bearer((await login(t.app, 'user@demo.local')).access_token);
    colleague = bearer((await login(t.app, 'newhire@demo.local')).access_token);
    const other = await createOrganisation(t.db, { name: 'Other Org' });
    await addUser(t.db, { client_id: other.client.id, name: 'Sam Stranger', email: 'sam@other.test' });
    stranger = bearer((await login(t.app, 'sam@other.test')).access_token);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: { payload?: object; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method, url: `${API}/prompt-libraries${url}`, headers: opts.headers ?? mine, payload: opts.payload });
  const entryOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(promptEntry).parse(res.json()).data;
  };
  const save = async (prompt: string, tags: string[], headers = mine) => entryOf(await call('POST', '/', { payload: { prompt, tags }, headers }));
  const list = async (query = '', headers = mine) => {
    const res = await call('GET', `/${query}`, { headers });
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(promptList).parse(res.json()).data;
  };
  const refused = async (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return errorEnvelope.parse(res.json());
  };

  it('saves a trimmed prompt with its tags split at commas, trimmed, empties dropped and repeats kept once', async () => {
    const res = await call('POST', '/', { payload: { prompt: '  Draft a polite reminder  ', tags: [' Email ', 'email', 'follow-up, Customers ,', '', 'EMAIL'] } });
    expect(res.json().message).toBe('Prompt saved successfully');
    const entry = entryOf(res);
    expect(entry).toMatchObject({ prompt: 'Draft a polite reminder', tags: ['Email', 'follow-up', 'Customers'] });
    expect(entry.created_at).toBe(entry.updated_at);
    expect(entryOf(await call('GET', `/${entry.id}`))).toEqual(entry);
  });

  it('refuses a prompt without text or tags, and over the limits, with the sentences a person reads', async () => {
    const cases: [object, string, string][] = [
      [{ tags: ['a'] }, 'prompt', 'Prompt is required'],
      [{ prompt: '', tags: ['a'] }, 'prompt', 'Prompt is required'],
      [{ prompt: ' \n\t ', tags: ['a'] }, 'prompt', 'Prompt is required'],
      [{ prompt: null, tags: ['a'] }, 'prompt', 'Prompt is required'],
      [{ prompt: 12, tags: ['a'] }, 'prompt', 'Prompt must be text'],
      [{ prompt: 'x'.repeat(20_001), tags: ['a'] }, 'prompt', 'Prompt cannot be more than 20,000 characters'],
      [{ prompt: 'p' }, 'tags', 'At least one tag is required'],
      [{ prompt: 'p', tags: [] }, 'tags', 'At least one tag is required'],
      [{ prompt: 'p', tags: ['  ', ',', ' , '] }, 'tags', 'At least one tag is required'],
      [{ prompt: 'p', tags: 'email' }, 'tags', 'tags must be a list of text'],
      [{ prompt: 'p', tags: [3] }, 'tags.0', 'Each tag must be text'],
      [{ prompt: 'p', tags: Array.from({ length: 21 }, (_, i) => `tag ${i}`) }, 'tags', 'A prompt can have at most 20 tags'],
      [{ prompt: 'p', tags: ['ok', 'x'.repeat(51)] }, 'tags.1', 'A tag cannot be more than 50 characters'],
    ];
    for (const [payload, field, sentence] of cases) {
      const body = await refused(await call('POST', '/', { payload }), 400);
      expect(body.detail, JSON.stringify(payload).slice(0, 80)).toBe(sentence);
      expect(body.fields?.[field]).toBe(sentence);
    }
    // At the limits, counted after normalising: 20 tags of 50 characters (repeats and padding do not count).
    const twenty = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'t'.repeat(48)}`);
    const atLimits = await save('x'.repeat(20_000), [...twenty, ...twenty.map((tag) => ` ${tag.toUpperCase()} `)]);
    expect(atLimits.tags).toEqual(twenty);
    expect(atLimits.prompt).toHaveLength(20_000);
  });

  it('edits a prompt (text and tags replaced, moved to the top) and deletes it', async () => {
    const entry = await save('Old text', ['old']);
    await pause(5);
    await save('Newer prompt', ['other']);
    await pause(5);
    const res = await call('PUT', `/${entry.id}`, { payload: { prompt: ' New text ', tags: ['new, Fresh'] } });
    expect(res.json().message).toBe('Prompt updated successfully');
    const updated = entryOf(res);
    expect(updated).toMatchObject({ id: entry.id, prompt: 'New text', tags: ['new', 'Fresh'], created_at: entry.created_at });
    expect(updated.updated_at > entry.updated_at).toBe(true);
    expect(entryOf(await call('GET', `/${entry.id}`))).toEqual(updated);
    expect((await list()).data[0].id).toBe(entry.id);

    const invalid = await refused(await call('PUT', `/${entry.id}`, { payload: { prompt: 'still valid', tags: [] } }), 400);
    expect(invalid.detail).toBe('At least one tag is required');
    expect(entryOf(await call('GET', `/${entry.id}`))).toEqual(updated);

    const deleted = await call('DELETE', `/${entry.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Prompt deleted successfully');
    for (const res of [await call('GET', `/${entry.id}`), await call('DELETE', `/${entry.id}`)]) {
      expect((await refused(res, 404)).detail).toBe('Prompt not found');
    }
    expect(await t.db.selectFrom('prompt_library_tags').select('tag').where('prompt_id', '=', entry.id).execute()).toEqual([]);
  });

  it("answers 404 'Prompt not found' for another person's prompt, in the organisation or outside it, and changes nothing", async () => {
    const entry = await save('My private prompt', ['private']);
    for (const headers of [colleague, stranger]) {
      for (const res of [
        await call('GET', `/${entry.id}`, { headers }),
        await call('PUT', `/${entry.id}`, { headers, payload: { prompt: 'Taken over', tags: ['mine'] } }),
        await call('DELETE', `/${entry.id}`, { headers }),
        await call('GET', '/no-such-prompt', { headers }),
      ]) {
        expect((await refused(res, 404)).detail).toBe('Prompt not found');
      }
      expect((await list('?search=private', headers)).total).toBe(0);
    }
    expect(entryOf(await call('GET', `/${entry.id}`))).toEqual(entry);
  });

  describe('the list', () => {
    let headers: Record<string, string>;
    const saved: PromptEntry[] = [];
    beforeAll(async () => {
      const org = await createOrganisation(t.db, { name: 'Listing Org' });
      await addUser(t.db, { client_id: org.client.id, name: 'Lee Lister', email: 'lee@listing.test' });
      headers = bearer((await login(t.app, 'lee@listing.test')).access_token);
      const prompts: [string, string[]][] = [
        ['Summarise the BUDGET report', ['Finance', 'reports']],
        ['Write a job advert', ['HR']],
        ['Explain 100% of the variance', ['finance', 'analysis']],
        ['Plan the team offsite', ['events']],
        ['Polite payment reminder', ['email', 'Finance']],
        ['Interview questions for analysts', ['hr', 'interviews']],
        ['Translate into Malay', ['language']],
        ['Weekly status update', ['reports']],
        ['Meeting minutes template', ['meetings', 'templates']],
        ['Budget_2027 assumptions', ['planning']],
        ['Onboarding checklist', ['HR', 'checklists']],
        ['Customer complaint reply', ['email', 'customers']],
      ];
      for (const [prompt, tags] of prompts) {
        saved.push(await save(prompt, tags, headers));
        await pause(3);
      }
    });
    const ids = (entries: PromptEntry[]) => entries.map((e) => e.id);
    const newestFirst = () => [...saved].reverse();

    it('pages the newest first, 10 by default', async () => {
      const page1 = await list('', headers);
      expect(page1).toMatchObject({ page: 1, total: 12, total_pages: 2 });
      expect(ids(page1.data)).toEqual(ids(newestFirst().slice(0, 10)));
      const page2 = await list('?page=2', headers);
      expect(ids(page2.data)).toEqual(ids(newestFirst().slice(10)));
      expect(await list('?page=3', headers)).toEqual({ data: [], page: 3, total: 12, total_pages: 2 });
      expect(ids((await list('?limit=5&page=3', headers)).data)).toEqual(ids(newestFirst().slice(10)));
      expect((await list('?limit=100', headers)).total_pages).toBe(1);
    });

    it('filters by any of the given tags, whatever their case', async () => {
      const finance = await list('?tags=FINANCE', headers);
      expect(finance.total).toBe(3);
      expect(finance.data.map((e) => e.prompt)).toEqual(['Polite payment reminder', 'Explain 100% of the variance', 'Summarise the BUDGET report']);
      const either = await list(`?tags=${encodeURIComponent(' hr , Events,,')}`, headers);
      expect(either.data.map((e) => e.prompt).sort()).toEqual(
        ['Interview questions for analysts', 'Onboarding checklist', 'Plan the team offsite', 'Write a job advert'].sort(),
      );
      expect(either.total).toBe(4);
      expect((await list('?tags=nothing-like-it', headers)).total).toBe(0);
      expect((await list('?tags=', headers)).total).toBe(12);
    });

    it('searches the prompt and its tags, case-insensitively, taking % and _ literally', async () => {
      expect((await list('?search=budget', headers)).data.map((e) => e.prompt)).toEqual(['Budget_2027 assumptions', 'Summarise the BUDGET report']);
      expect((await list('?search=CHECKLIST', headers)).data.map((e) => e.prompt)).toEqual(['Onboarding checklist']);
      // Only in a tag:
      expect((await list('?search=custom', headers)).data.map((e) => e.prompt)).toEqual(['Customer complaint reply']);
      expect((await list('?search=100%25', headers)).data.map((e) => e.prompt)).toEqual(['Explain 100% of the variance']);
      expect((await list('?search=t_2', headers)).data.map((e) => e.prompt)).toEqual(['Budget_2027 assumptions']);
      expect((await list('?search=zzz', headers))).toEqual({ data: [], page: 1, total: 0, total_pages: 0 });
      // Both filters at once, with the totals of the filtered list.
      const both = await list('?tags=email&search=reminder&limit=1', headers);
      expect(both).toMatchObject({ total: 1, total_pages: 1 });
      expect(both.data[0].prompt).toBe('Polite payment reminder');
    });

    it('refuses bad paging with the shared sentences', async () => {
      for (const [query, sentence] of [
        ['?page=0', 'page must be a whole number of 1 or more'],
        ['?limit=0', 'limit must be a whole number from 1 to 100'],
        ['?limit=101', 'limit must be a whole number from 1 to 100'],
        ['?limit=ten', 'limit must be a whole number from 1 to 100'],
      ]) {
        expect((await refused(await call('GET', `/${query}`, { headers }), 400)).detail).toBe(sentence);
      }
    });
  });

  it('needs a session on every route', async () => {
    const entry = await save('Guarded', ['guard']);
    for (const [method, url] of [
      ['GET', '/'],
      ['POST', '/'],
      ['GET', `/${entry.id}`],
      ['PUT', `/${entry.id}`],
      ['DELETE', `/${entry.id}`],
    ] as const) {
      const res = await call(method, url, { headers: {}, payload: method === 'POST' || method === 'PUT' ? { prompt: 'x', tags: ['y'] } : undefined });
      expect((await refused(res, 401)).detail, `${method} ${url}`).toBe('Not authenticated');
    }
    expect(entryOf(await call('GET', `/${entry.id}`))).toEqual(entry);
  });
});
