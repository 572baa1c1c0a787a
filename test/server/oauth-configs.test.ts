import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { oauthConfig, oauthConfigList } from '../../contract/oauth-configs';
import {
  CLIENT_NOT_FOUND,
  OAUTH_CLIENT_ID_REQUIRED,
  OAUTH_CLIENT_SECRET_REQUIRED,
  OAUTH_CONFIG_NOT_FOUND,
  OAUTH_CREATED,
  OAUTH_DELETED,
  OAUTH_KEY_MISSING,
  OAUTH_KEY_WRONG,
  OAUTH_PROVIDER_REQUIRED,
  OAUTH_UPDATED,
  oauthProviderTaken,
} from '../../contract/oauth-configs-constants';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { oauthCredentials } from '../../server/services/identity/oauth-configs';
import { API, bearer, createOrganisation, demoClientId, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

/** Every secret a test stores: none may show in an answer, a log line or a database column. */
const secrets: string[] = [];
const newSecret = () => {
  const secret = `s3cret-${randomBytes(12).toString('hex')}`;
  secrets.push(secret);
  return secret;
};

describe(`a client's OAuth configurations (${dbKind})`, () => {
  let t: TestApp;
  const logLines: string[] = [];
  const answers: string[] = [];
  let superuser: Record<string, string>;
  let clientId: string;

  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } });
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    clientId = (await createOrganisation(t.db, { name: 'Sso Org' })).client.id;
  });
  afterAll(() => t?.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers = superuser, payload?: object) => {
    const res = await t.app.inject({ method, url: `${API}/clients/${path}`, headers, payload });
    answers.push(`${JSON.stringify(res.headers)}\n${res.body}`);
    return res;
  };
  const refused = (res: LightMyRequestResponse, status: number, detail?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    if (detail) expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };
  const created = async (id: string, body: object) => {
    const res = await call('POST', `${id}/oauth-configs`, superuser, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(OAUTH_CREATED);
    return successEnvelope(oauthConfig).parse(res.json()).data;
  };

  it('adds, lists, edits and deletes, answering the secret only masked', async () => {
    const secret = newSecret();
    const made = await created(clientId, { provider: 'microsoft', tenant_id: '', provider_client_id: ' app-123 ', provider_client_secret: secret });
    expect(made).toMatchObject({ client_id: clientId, provider: 'microsoft', tenant_id: null, provider_client_id: 'app-123' });
    expect(made.provider_client_secret_masked).toBe(`••••••••${secret.slice(-4)}`);

    const list = await call('GET', `${clientId}/oauth-configs`);
    expect(successEnvelope(oauthConfigList).parse(list.json()).data).toEqual([made]);

    // Edit without the secret keeps it; with one replaces it.
    const edited = await call('PUT', `${clientId}/oauth-configs/${made.id}`, superuser, { tenant_id: 'tenant-9', provider_client_id: 'app-456' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().message).toBe(OAUTH_UPDATED);
    expect(edited.json().data).toMatchObject({ tenant_id: 'tenant-9', provider_client_id: 'app-456', provider_client_secret_masked: made.provider_client_secret_masked });
    expect((await oauthCredentials(t.db, t.config.oauthSecretKey, clientId, 'microsoft'))?.clientSecret).toBe(secret);
    const second = newSecret();
    const rekeyed = await call('PUT', `${clientId}/oauth-configs/${made.id}`, superuser, { provider_client_secret: second });
    expect(rekeyed.json().data.provider_client_secret_masked).toBe(`••••••••${second.slice(-4)}`);
    expect(await oauthCredentials(t.db, t.config.oauthSecretKey, clientId, 'microsoft')).toEqual({ tenantId: 'tenant-9', clientId: 'app-456', clientSecret: second });

    const gone = await call('DELETE', `${clientId}/oauth-configs/${made.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ data: { id: made.id }, message: OAUTH_DELETED });
    expect(successEnvelope(oauthConfigList).parse((await call('GET', `${clientId}/oauth-configs`)).json()).data).toEqual([]);
    refused(await call('DELETE', `${clientId}/oauth-configs/${made.id}`), 404, OAUTH_CONFIG_NOT_FOUND);
  });

  it('shows a short secret as bullets only', async () => {
    const org = await createOrganisation(t.db, { name: 'Short Secret Org' });
    const made = await created(org.client.id, { provider: 'google', provider_client_id: 'g', provider_client_secret: 'abc12' });
    expect(made.provider_client_secret_masked).toBe('••••••••');
  });

  it('keeps one configuration per provider per client (409), also when an edit changes the provider', async () => {
    const org = await createOrganisation(t.db, { name: 'Two Providers Org' });
    const ms = await created(org.client.id, { provider: 'microsoft', provider_client_id: 'm', provider_client_secret: newSecret() });
    refused(await call('POST', `${org.client.id}/oauth-configs`, superuser, { provider: 'microsoft', provider_client_id: 'x', provider_client_secret: newSecret() }), 409, oauthProviderTaken('microsoft'));
    const google = await created(org.client.id, { provider: 'google', provider_client_id: 'g', provider_client_secret: newSecret() });
    refused(await call('PUT', `${org.client.id}/oauth-configs/${google.id}`, superuser, { provider: 'microsoft' }), 409, oauthProviderTaken('microsoft'));
    // Another client may have its own of each.
    await created(clientId, { provider: 'google', provider_client_id: 'g2', provider_client_secret: newSecret() });
    // A configuration is reached only through its own client.
    refused(await call('PUT', `${clientId}/oauth-configs/${ms.id}`, superuser, { provider_client_id: 'moved' }), 404, OAUTH_CONFIG_NOT_FOUND);
  });

  it("validates with the spec's sentences", async () => {
    const post = (body: object) => call('POST', `${clientId}/oauth-configs`, superuser, body);
    refused(await post({ provider_client_id: 'a', provider_client_secret: 'b' }), 400, OAUTH_PROVIDER_REQUIRED);
    refused(await post({ provider: 'github', provider_client_id: 'a', provider_client_secret: 'b' }), 400, 'provider must be microsoft or google');
    refused(await post({ provider: 'microsoft', provider_client_id: '  ', provider_client_secret: 'b' }), 400, OAUTH_CLIENT_ID_REQUIRED);
    refused(await post({ provider: 'microsoft', provider_client_id: 'a' }), 400, OAUTH_CLIENT_SECRET_REQUIRED);
    refused(await post({ provider: 'microsoft', provider_client_id: 'a', provider_client_secret: '' }), 400, OAUTH_CLIENT_SECRET_REQUIRED);
    const [existing] = successEnvelope(oauthConfigList).parse((await call('GET', `${clientId}/oauth-configs`)).json()).data;
    refused(await call('PUT', `${clientId}/oauth-configs/${existing!.id}`, superuser, { provider_client_id: '' }), 400, OAUTH_CLIENT_ID_REQUIRED);
    refused(await call('PUT', `${clientId}/oauth-configs/${existing!.id}`, superuser, { provider_client_secret: '' }), 400, OAUTH_CLIENT_SECRET_REQUIRED);
  });

  it('is for the superuser: admins and users 403, nobody signed in 401, an unknown client 404', async () => {
    const admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    const user = bearer((await login(t.app, 'user@demo.local')).access_token);
    const own = await demoClientId(t.db);
    for (const headers of [admin, user]) {
      refused(await call('GET', `${own}/oauth-configs`, headers), 403);
      refused(await call('POST', `${own}/oauth-configs`, headers, { provider: 'google', provider_client_id: 'a', provider_client_secret: newSecret() }), 403);
      refused(await call('PUT', `${own}/oauth-configs/x`, headers, { provider_client_id: 'a' }), 403);
      refused(await call('DELETE', `${own}/oauth-configs/x`, headers), 403);
    }
    refused(await call('GET', `${own}/oauth-configs`, {}), 401);
    refused(await call('GET', 'no-such-client/oauth-configs'), 404, CLIENT_NOT_FOUND);
    refused(await call('POST', 'no-such-client/oauth-configs', superuser, { provider: 'google', provider_client_id: 'a', provider_client_secret: newSecret() }), 404, CLIENT_NOT_FOUND);
    expect(successEnvelope(oauthConfigList).parse((await call('GET', `${own}/oauth-configs`)).json()).data).toEqual([]);
  });

  it('stores no secret in plain text, answers none and logs none', async () => {
    const org = await createOrganisation(t.db, { name: 'Raw Row Org' });
    const secret = newSecret();
    await created(org.client.id, { provider: 'google', provider_client_id: 'raw', provider_client_secret: secret });
    // Every column of every row, read raw.
    const { rows } = await sql<Record<string, unknown>>`select * from oauth_configs`.execute(t.db);
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    for (const s of secrets) {
      expect(stored).not.toContain(s);
      // Nor its base64 (a column "encrypted" only by encoding).
      expect(stored).not.toContain(Buffer.from(s).toString('base64').slice(0, 16));
    }
    expect(logLines.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(logLines.join('\n')).not.toContain(s);
      expect(answers.join('\n')).not.toContain(s);
    }
  });

  it('refuses to open a secret that was tampered with or moved to another row (503, not a garbled secret)', async () => {
    const org = await createOrganisation(t.db, { name: 'Tamper Org' });
    const a = await created(org.client.id, { provider: 'microsoft', provider_client_id: 'a', provider_client_secret: newSecret() });
    const b = await created(org.client.id, { provider: 'google', provider_client_id: 'b', provider_client_secret: newSecret() });
    const sealedOf = async (id: string) =>
      (await t.db.selectFrom('oauth_configs').select('secret_sealed').where('id', '=', id).executeTakeFirstOrThrow()).secret_sealed;
    const original = await sealedOf(a.id);
    // One bit of the ciphertext flipped. (Not its last base64url character: that one may hold unused bits, so
    // changing it sometimes changed nothing, and this test failed one run in a few.)
    const parts = original.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    const tampered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    await t.db.updateTable('oauth_configs').set({ secret_sealed: tampered }).where('id', '=', a.id).execute();
    refused(await call('GET', `${org.client.id}/oauth-configs`), 503, OAUTH_KEY_WRONG);
    // B's sealed secret copied onto A: bound to B's row, it does not open as A's.
    await t.db.updateTable('oauth_configs').set({ secret_sealed: await sealedOf(b.id) }).where('id', '=', a.id).execute();
    refused(await call('GET', `${org.client.id}/oauth-configs`), 503, OAUTH_KEY_WRONG);
    await t.db.updateTable('oauth_configs').set({ secret_sealed: original }).where('id', '=', a.id).execute();
    expect((await call('GET', `${org.client.id}/oauth-configs`)).statusCode).toBe(200);
  });

  it('with another key: a clear 503 on reading, and no secret', async () => {
    const other = await buildApp({ config: { ...t.config, oauthSecretKey: randomBytes(32) }, db: t.db, logger: false });
    try {
      const res = await other.inject({ method: 'GET', url: `${API}/clients/${clientId}/oauth-configs`, headers: superuser });
      refused(res, 503, OAUTH_KEY_WRONG);
      for (const s of secrets) expect(res.body).not.toContain(s);
    } finally {
      await other.close();
    }
  });

  it('without a key: the server refuses to start while configurations exist, and an empty database starts but cannot add one (503)', async () => {
    const noKey = { ...t.config, oauthSecretKey: undefined };
    await expect(buildApp({ config: noKey, db: t.db, logger: false })).rejects.toThrow(/OAUTH_SECRET_KEY is not set, but the database holds OAuth configurations/);

    const bare = await createTestApp({ env: { OAUTH_SECRET_KEY: '' } });
    try {
      expect(bare.config.oauthSecretKey).toBeUndefined();
      const su = bearer((await login(bare.app, 'super@demo.local')).access_token);
      const org = await createOrganisation(bare.db, { name: 'Keyless Org' });
      const res = await bare.app.inject({
        method: 'POST',
        url: `${API}/clients/${org.client.id}/oauth-configs`,
        headers: su,
        payload: { provider: 'google', provider_client_id: 'a', provider_client_secret: newSecret() },
      });
      refused(res, 503, OAUTH_KEY_MISSING);
      expect(await bare.db.selectFrom('oauth_configs').select('id').execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('OAUTH_SECRET_KEY', () => {
  it('takes 32 bytes as 64 hex digits or base64, and refuses anything else with a clear message', () => {
    const key = randomBytes(32);
    expect(loadConfig({ OAUTH_SECRET_KEY: key.toString('hex') }).oauthSecretKey).toEqual(key);
    expect(loadConfig({ OAUTH_SECRET_KEY: key.toString('base64') }).oauthSecretKey).toEqual(key);
    expect(loadConfig({ OAUTH_SECRET_KEY: key.toString('base64url') }).oauthSecretKey).toEqual(key);
    expect(loadConfig({}).oauthSecretKey).toBeUndefined();
    for (const bad of ['short', randomBytes(16).toString('base64'), randomBytes(31).toString('hex') + 'zz']) {
      expect(() => loadConfig({ OAUTH_SECRET_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ OAUTH_SECRET_KEY: bad })).toThrow(/OAUTH_SECRET_KEY: must be 32 bytes/);
    }
  });
});
