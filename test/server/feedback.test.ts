import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { feedbackReceipt } from '../../contract/feedback';
import { findUserByEmail } from '../../server/db/repositories/users';
import { bearer, login, post } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`feedback and issue reports (${dbKind})`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    headers = bearer((await login(t.app, 'user@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const send = (payload: object, as = headers) => post(t.app, '/feedbacks/', payload, as);
  const stored = async (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Your submission has been received. Thank you!');
    const { id } = successEnvelope(feedbackReceipt).parse(res.json()).data;
    return t.db.selectFrom('feedback_submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  };

  it('stores feedback with its rating, the sender and their organisation', async () => {
    const user = await findUserByEmail(t.db, 'user@demo.local');
    const row = await stored(await send({ type: 'feedback', level: 'EXCELLENT', description: '  Very helpful for drafting.  ' }));
    expect(row).toMatchObject({
      type: 'feedback',
      level: 'EXCELLENT',
      description: 'Very helpful for drafting.',
      user_id: user!.id,
      client_id: user!.client_id,
    });
    expect(Date.now() - Date.parse(row.created_at)).toBeLessThan(60_000);
    expect((await stored(await send({ type: 'feedback', level: 'POOR' }))).description).toBeNull();
  });

  it('stores a report without a rating, dropping one sent with it', async () => {
    expect(await stored(await send({ type: 'report', level: null, description: 'The copy button did nothing.' }))).toMatchObject({
      type: 'report',
      level: null,
      description: 'The copy button did nothing.',
    });
    expect((await stored(await send({ type: 'report', level: 'AVERAGE', description: 'Kept the default rating' }))).level).toBeNull();
    expect(await stored(await send({ type: 'report', description: '   ' }))).toMatchObject({ level: null, description: null });
  });

  it('refuses what cannot be stored with a sentence naming the field', async () => {
    const cases: [object, string, string][] = [
      [{ type: 'feedback', description: 'No rating' }, 'level', 'Rating is required'],
      [{ type: 'feedback', level: null }, 'level', 'Rating is required'],
      [{ level: 'GOOD' }, 'type', 'type must be feedback or report'],
      [{ type: 'praise', level: 'GOOD' }, 'type', 'type must be feedback or report'],
      [{ type: 'feedback', level: 'GREAT' }, 'level', 'level must be one of POOR, BELOW_AVERAGE, AVERAGE, GOOD, EXCELLENT'],
      [{ type: 'report', level: 'great' }, 'level', 'level must be one of POOR, BELOW_AVERAGE, AVERAGE, GOOD, EXCELLENT'],
      [{ type: 'feedback', level: 'GOOD', description: 'x'.repeat(5_001) }, 'description', 'Description cannot be more than 5,000 characters'],
      [{ type: 'feedback', level: 'GOOD', description: 42 }, 'description', 'description must be text'],
    ];
    for (const [payload, field, sentence] of cases) {
      const res = await send(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      const body = errorEnvelope.parse(res.json());
      expect(body.detail).toBe(sentence);
      expect(body.fields?.[field]).toBe(sentence);
    }
    expect((await stored(await send({ type: 'feedback', level: 'GOOD', description: 'y'.repeat(5_000) }))).description).toHaveLength(5_000);
  });

  it('is open to every role, and only to people signed in', async () => {
    for (const email of ['super@demo.local', 'admin@demo.local', 'newhire@demo.local']) {
      const user = await findUserByEmail(t.db, email);
      const row = await stored(await send({ type: 'feedback', level: 'GOOD' }, bearer((await login(t.app, email)).access_token)));
      expect(row).toMatchObject({ user_id: user!.id, client_id: user!.client_id });
    }
    const anon = await send({ type: 'feedback', level: 'GOOD' }, {});
    expect(anon.statusCode).toBe(401);
    expect(errorEnvelope.parse(anon.json()).detail).toBe('Not authenticated');
  });
});
