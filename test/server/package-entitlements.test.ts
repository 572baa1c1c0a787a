import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths } from '../../contract/api-paths';
import { featureNotIncluded } from '../../contract/features';
import { up as clientsMigration } from '../../server/db/migrations/2026-11-30-01-clients';
import { findPackageByType, setPackageFeatures } from '../../server/db/repositories/packages';
import { addUser, bearer, createOrganisation, login, post } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const DAY_MS = 86_400_000;
const iso = (fromNowDays: number) => new Date(Date.now() + fromNowDays * DAY_MS).toISOString();

/** What people may do in the chat is read from the package row of their organisation's subscription in force. */
describe(`packages' features drive entitlements (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;

  const features = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: `${API_PREFIX}${paths.me}`, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { package_name: string; features: string[] };
  };
  const askForImage = (token: string) =>
    post(t.app, paths.messages, { conversation_id: null, message: 'Draw a cat', image_generation: true }, bearer(token));

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
  });
  afterAll(async () => {
    // The package rows are shared by the file's organisations: put standard back as the migration seeds it.
    await setPackageFeatures(t.db, (await findPackageByType(t.db, 'standard'))!.id, ['browsing', 'reasoning']);
    await t.close();
  });

  it("follows a change of the package's features from the person's next request", async () => {
    const org = await createOrganisation(t.db, { name: 'Standard Features Org', packageType: 'standard' });
    await addUser(t.db, { client_id: org.client.id, name: 'Stan', email: 'stan@features.test', department_id: org.department.id });
    const { access_token: token } = await login(t.app, 'stan@features.test');
    expect(await features(token)).toEqual(expect.objectContaining({ package_name: 'standard', features: ['browsing', 'reasoning'] }));
    const refused = await askForImage(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: featureNotIncluded('image_generation'), code: 'feature_not_included' });

    const standard = (await findPackageByType(t.db, 'standard'))!;
    await setPackageFeatures(t.db, standard.id, ['reasoning', 'image_generation', 'not-a-chat-feature']);
    // Only the chat's own features, in the contract's order.
    expect((await features(token)).features).toEqual(['image_generation', 'reasoning']);
    const browsing = await post(t.app, paths.messages, { conversation_id: null, message: 'Look it up', browsing: true }, bearer(token));
    expect(browsing.statusCode).toBe(403);
    expect(browsing.json().detail).toBe(featureNotIncluded('browsing'));
    await setPackageFeatures(t.db, standard.id, ['browsing', 'reasoning']);
  });

  it('follows a change of subscription: a premium subscription in force brings image generation', async () => {
    const org = await createOrganisation(t.db, { name: 'Upgrading Org', packageType: 'standard' });
    await addUser(t.db, { client_id: org.client.id, name: 'Upa', email: 'upa@upgrading.test', department_id: org.department.id });
    const session = await login(t.app, 'upa@upgrading.test');
    expect((await features(session.access_token)).features).not.toContain('image_generation');

    // The standard one ends now; a premium one starts a moment later (they may not overlap).
    await t.db.updateTable('subscriptions').set({ expire_date: iso(-1 / 24) }).where('client_id', '=', org.client.id).execute();
    const premium = (await findPackageByType(t.db, 'premium'))!;
    const res = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}${paths.subscriptions}`,
      headers: superuser,
      payload: { client_id: org.client.id, package_id: premium.id, max_users: 5, fair_use: 1, start_date: iso(-1 / 48), expire_date: iso(365) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const refreshed = await post(t.app, paths.refresh, undefined, bearer(session.refresh_token));
    expect(refreshed.statusCode).toBe(200);
    expect(await features(refreshed.json().data.access_token)).toEqual(
      expect.objectContaining({ package_name: 'premium', features: ['browsing', 'image_generation', 'reasoning'] }),
    );
  });

  it('the migration gives placeholder features the ones the package type had, and leaves chat features alone', async () => {
    const free = (await findPackageByType(t.db, 'free'))!;
    const premium = (await findPackageByType(t.db, 'premium'))!;
    await setPackageFeatures(t.db, free.id, ['chat', 'documents']);
    await setPackageFeatures(t.db, premium.id, ['chat', 'web_browsing', 'image_generation_old']);
    const custom = (await findPackageByType(t.db, 'standard'))!;
    await setPackageFeatures(t.db, custom.id, ['reasoning']);
    await clientsMigration(t.db);
    expect((await findPackageByType(t.db, 'free'))!.features).toEqual(['browsing', 'reasoning']);
    expect((await findPackageByType(t.db, 'premium'))!.features).toEqual(['browsing', 'image_generation', 'reasoning']);
    expect((await findPackageByType(t.db, 'standard'))!.features).toEqual(['reasoning']);
    const types = await t.db.selectFrom('packages').select('type').orderBy('type').execute();
    expect(types.map((p) => p.type)).toEqual(['free', 'premium', 'standard']);
    await setPackageFeatures(t.db, custom.id, ['browsing', 'reasoning']);
  });
});
