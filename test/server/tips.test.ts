import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { normaliseTags } from '../../shared/tags';
import { tipLevels, tipList, tipPersonas, type Tip } from '../../contract/tips';
import { TIPS } from '../../server/db/tips-content';
import { syncTips } from '../../server/services/chat/tips';
import { API, bearer, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`tips (${dbKind})`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    headers = bearer((await login(t.app, 'user@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const list = async (query = '', as = headers) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/tips/${query}`, headers: as });
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(tipList).parse(res.json()).data;
  };
  const all = async (query = '') => (await list(`?limit=100${query}`)).tips;
  const ids = (tips: Tip[]) => tips.map((tip) => tip.id);

  it('holds at least 20 complete tips, 10 a page, in the content order', async () => {
    const page1 = await list();
    expect(page1.total).toBeGreaterThanOrEqual(20);
    expect(page1).toMatchObject({ page: 1, limit: 10, total: TIPS.length, total_pages: Math.ceil(TIPS.length / 10) });
    expect(page1.tips).toHaveLength(10);

    const pages = [];
    for (let page = 1; page <= page1.total_pages; page++) pages.push(...(await list(`?page=${page}`)).tips);
    expect(ids(pages)).toEqual(TIPS.map((tip) => tip.id));
    expect(new Set(ids(pages)).size).toBe(TIPS.length);
    expect(pages).toEqual(TIPS);

    for (const tip of pages) {
      expect(tip.title.length, tip.id).toBeGreaterThan(10);
      expect(tip.duration, tip.id).toMatch(/^\d+ min$/);
      expect(tipLevels, tip.id).toContain(tip.level);
      expect(tipPersonas, tip.id).toContain(tip.persona);
      expect(tip.tags.length, tip.id).toBeGreaterThan(0);
      // Written as stored, so every tag can be named in a filter.
      expect(normaliseTags(tip.tags), tip.id).toEqual(tip.tags);
      expect(tip.content.split('\n').filter((line) => line.trim()).length, tip.id).toBeGreaterThanOrEqual(3);
    }
    // Every level and persona has tips.
    expect(new Set(pages.map((tip) => tip.level))).toEqual(new Set(tipLevels));
    expect(new Set(pages.map((tip) => tip.persona))).toEqual(new Set(tipPersonas));
    expect((await list('?page=99')).tips).toEqual([]);
  });

  it('filters by level, persona and any of the given tags', async () => {
    const advanced = await all('&level=advanced');
    expect(ids(advanced)).toEqual(TIPS.filter((tip) => tip.level === 'advanced').map((tip) => tip.id));
    expect(advanced.length).toBeGreaterThan(0);

    const analyst = await all('&persona=analyst');
    expect(ids(analyst)).toEqual(TIPS.filter((tip) => tip.persona === 'analyst').map((tip) => tip.id));

    const tagged = await all(`&tags=${encodeURIComponent('PRIVACY, sharing')}`);
    expect(ids(tagged)).toEqual(['share-a-conversation', 'data-privacy']);

    const combined = await list('?level=intermediate&persona=analyst&tags=data,reasoning');
    expect(ids(combined.tips)).toEqual(['reasoning-effort', 'tables-from-data']);
    expect(combined.total).toBe(2);
    expect(combined.total_pages).toBe(1);
  });

  it('searches titles, contents and tags, case-insensitively', async () => {
    expect(ids(await all('&search=SHIFT%2BENTER'))).toContain('enter-and-shift-enter');
    // Only in a tag:
    expect(ids(await all('&search=prompt%20libr'))).toEqual(expect.arrayContaining(['prompt-library', 'prompt-templates']));
    // Only in the content:
    expect(ids(await all('&search=regulator'))).toEqual(['write-for-an-audience']);
    const none = await list('?search=no%20tip%20says%20this');
    expect(none).toMatchObject({ tips: [], total: 0, total_pages: 0 });
  });

  it('refuses unknown levels and personas and bad paging with sentences', async () => {
    for (const [query, sentence] of [
      ['?level=expert', 'level must be one of beginner, intermediate, advanced'],
      ['?persona=robot', 'persona must be one of everyone, writer, analyst, manager'],
      ['?limit=101', 'limit must be a whole number from 1 to 100'],
      ['?page=0', 'page must be a whole number of 1 or more'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${API}/tips/${query}`, headers });
      expect(res.statusCode).toBe(400);
      expect(errorEnvelope.parse(res.json()).detail).toBe(sentence);
    }
  });

  it('is the same for every role and needs a session', async () => {
    const expected = await all();
    for (const email of ['super@demo.local', 'admin@demo.local']) {
      expect((await list('?limit=100', bearer((await login(t.app, email)).access_token))).tips).toEqual(expected);
    }
    const anon = await t.app.inject({ method: 'GET', url: `${API}/tips/` });
    expect(anon.statusCode).toBe(401);
  });

  it('is kept equal to the content file on every start: nothing written when up to date, edits and strays repaired', async () => {
    expect(await syncTips(t.db)).toBe(0);
    const first = TIPS[0];
    await t.db.updateTable('tips').set({ title: 'Edited by hand' }).where('id', '=', first.id).execute();
    await t.db.deleteFrom('tip_tags').where('tip_id', '=', first.id).execute();
    await t.db
      .insertInto('tips')
      .values({ id: 'stray', position: 999, title: 'Stray', duration: '1 min', level: 'beginner', persona: 'everyone', content: 'x', created_at: '', updated_at: '' })
      .execute();
    expect(await syncTips(t.db)).toBe(2);
    expect(await all()).toEqual(TIPS);
    expect(await syncTips(t.db)).toBe(0);
  });
});
