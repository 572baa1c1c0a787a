import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFull, tooManyUploads } from '../../contract/documents-constants';
import { loadConfig } from '../../server/config';
import { BUILT_IN_STORAGE_QUOTA_MB, quotaText, storageQuotaMbOf } from '../../server/services/documents/storage-quota';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { storedFiles, uploadFile, type Uploaded } from './helpers/document-api';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

const KB = 1024;
/** A plain-text file of `bytes` bytes (text passes the content check whatever its size). */
const text = (bytes: number) => Buffer.from('a'.repeat(bytes), 'utf8');

describe(`uploads per person per minute (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer({ env: { UPLOAD_RATE_LIMIT_PER_USER: '5' } });
  });
  afterAll(() => s.close());

  it('takes the first 5 of a burst of 12 parallel uploads and refuses the rest with 429, Retry-After and the sentence', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => uploadFile(s, null, `burst-${i}.txt`, text(100 * KB))),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(5);
    expect(refused.map((r) => r.status)).toEqual(Array(7).fill(429));
    for (const r of refused) expect(r.body.detail).toBe(tooManyUploads('1 minute'));
    const rows = await s.db.selectFrom('documents').select('id').where('user_id', '=', s.userId).execute();
    expect(rows).toHaveLength(5);
    expect(await storedFiles(s.config.dataDir)).toHaveLength(5);
  });

  it('answers Retry-After within the minute', async () => {
    const res = await fetch(`${s.apiUrl}/documents/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}` },
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob(['one more']), 'late.txt');
        return form;
      })(),
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts each person separately', async () => {
    const res = await uploadFile(s, null, 'colleague.txt', text(KB), { token: s.otherToken });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe(`the storage quota of an organisation's package (${dbKind})`, () => {
  let s: ChatServer;
  /** A person of another organisation, on the standard package. */
  let strangerToken: string;
  let superToken: string;
  let newhireId: string;
  const QUOTA = 1024 * KB;
  beforeAll(async () => {
    // The demo organisation is on premium: 1 MB. Free's entry shows that the package decides.
    s = await startChatServer({ env: { STORAGE_QUOTA_MB: 'free=1000,premium=1' } });
    const other = await createOrganisation(s.db, { name: 'Standard Org', packageType: 'standard' });
    await addUser(s.db, { client_id: other.client.id, name: 'Sam Stranger', email: 'sam@standard.test' });
    strangerToken = (await login(s.app, 'sam@standard.test')).access_token;
    superToken = (await login(s.app, 'super@demo.local')).access_token;
    newhireId = (await login(s.app, 'newhire@demo.local')).user.id;
  });
  afterAll(() => s.close());

  const demoBytes = async () => {
    const rows = await s.db.selectFrom('documents').select('size').where('user_id', 'in', [s.userId, newhireId]).execute();
    return rows.reduce((sum, r) => sum + r.size, 0);
  };
  const expectFull = (res: Uploaded) => {
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body.detail).toBe(storageFull('1 MB'));
    expect(res.body.detail).toBe("Your organisation's storage is full (1 MB). Delete files to make room, or ask your administrator.");
  };

  it('refuses with 413 an upload that would go past the quota, storing neither row nor bytes; any colleague too', async () => {
    const first = await uploadFile(s, null, 'first.txt', text(600 * KB));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const filesBefore = await storedFiles(s.config.dataDir);
    const rowsBefore = await s.db.selectFrom('documents').select('id').execute();

    expectFull(await uploadFile(s, null, 'second.txt', text(600 * KB)));
    expectFull(await uploadFile(s, null, 'colleague.txt', text(600 * KB), { token: s.otherToken }));
    expect(await storedFiles(s.config.dataDir)).toEqual(filesBefore);
    expect(await s.db.selectFrom('documents').select('id').execute()).toEqual(rowsBefore);

    // Exactly up to the quota still fits.
    const fits = await uploadFile(s, null, 'fits.txt', text(QUOTA - 600 * KB));
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expectFull(await uploadFile(s, null, 'one-byte.txt', text(1)));

    // Deleting makes room.
    const deleted = await s.api('DELETE', `/documents/${first.body.data.id}`);
    expect(deleted.status).toBe(200);
    expect((await uploadFile(s, null, 'again.txt', text(600 * KB))).status).toBe(201);
  });

  it('leaves other organisations (their own package) and the superuser (no organisation) alone', async () => {
    expect((await uploadFile(s, null, 'standard.txt', text(600 * KB), { token: strangerToken })).status).toBe(201);
    expect((await uploadFile(s, null, 'standard-2.txt', text(600 * KB), { token: strangerToken })).status).toBe(201);
    expect((await uploadFile(s, null, 'super.txt', text(600 * KB), { token: superToken })).status).toBe(201);
    expect((await uploadFile(s, null, 'super-2.txt', text(600 * KB), { token: superToken })).status).toBe(201);
  });

  it('lets no parallel burst go past the quota: the uploads are counted one after the other', async () => {
    // Empty the organisation's storage, then send 10 files of 300 KB at once: 3 fit into 1 MB, a 4th would not.
    const owned = await s.db.selectFrom('documents').select(['id', 'user_id']).where('user_id', 'in', [s.userId, newhireId]).execute();
    for (const row of owned) {
      const token = row.user_id === s.userId ? s.token : s.otherToken;
      expect((await s.api('DELETE', `/documents/${row.id}`, { token })).status).toBe(200);
    }
    expect(await demoBytes()).toBe(0);
    const filesBefore = (await storedFiles(s.config.dataDir)).length;

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => uploadFile(s, null, `parallel-${i}.txt`, text(300 * KB), { token: i % 2 ? s.otherToken : s.token })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) expectFull(r);
    expect(await demoBytes()).toBe(900 * KB);
    expect((await storedFiles(s.config.dataDir)).length - filesBefore).toBe(3);
  });
});

describe('STORAGE_QUOTA_MB and the built-in quotas', () => {
  it('has a quota for every seeded package, the standard one for a package it does not know', () => {
    expect(BUILT_IN_STORAGE_QUOTA_MB).toEqual({ free: 1024, standard: 10240, premium: 51200 });
    expect(storageQuotaMbOf('Premium', {})).toBe(51200);
    expect(storageQuotaMbOf('enterprise', {})).toBe(10240);
  });

  it('takes a number for every package, package=MB pairs for some, or both', () => {
    const quota = (value: string) => loadConfig({ STORAGE_QUOTA_MB: value }).storageQuotaMb;
    expect(loadConfig({}).storageQuotaMb).toEqual({});
    expect(quota('2048')).toEqual({ '*': 2048 });
    expect(quota('premium=102400, Free=512')).toEqual({ premium: 102400, free: 512 });
    expect(storageQuotaMbOf('free', quota('2048,premium=4096'))).toBe(2048);
    expect(storageQuotaMbOf('premium', quota('2048,premium=4096'))).toBe(4096);
    expect(storageQuotaMbOf('standard', quota('premium=4096'))).toBe(10240);
    for (const bad of ['0', 'premium=', 'premium=-1', '1.5', 'premium=10,,free=1', 'a b=1']) {
      expect(() => loadConfig({ STORAGE_QUOTA_MB: bad }), bad).toThrow(/STORAGE_QUOTA_MB: must be a number of MB/);
    }
  });

  it('names the quota in MB below 1 GB, else in GB', () => {
    expect(quotaText(500)).toBe('500 MB');
    expect(quotaText(1024)).toBe('1 GB');
    expect(quotaText(1536)).toBe('1.5 GB');
    expect(quotaText(51200)).toBe('50 GB');
  });
});
