import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths } from '../../contract/api-paths';
import { CLIENT_NOT_FOUND } from '../../contract/clients-constants';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { packageList, subscription as subscriptionSchema, subscriptionList, type Subscription } from '../../contract/subscriptions';
import {
  DATE_INVALID,
  EXPIRY_NOT_AFTER_START,
  PACKAGE_NOT_FOUND,
  PACKAGE_REQUIRED,
  SORT_ORDER_MISMATCH,
  SUBSCRIPTION_CREATED,
  overlapMessage,
} from '../../contract/subscriptions-constants';
import { findPackageByType } from '../../server/db/repositories/packages';
import { insertSubscription } from '../../server/db/repositories/subscriptions';
import { bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const DAY_MS = 86_400_000;
const iso = (fromNowDays: number) => new Date(Date.now() + fromNowDays * DAY_MS).toISOString();
const shift = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

describe(`subscriptions (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;
  let standardId: string;
  let premiumId: string;

  const call = (method: 'GET' | 'POST', url: string, payload?: object): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url: `${API_PREFIX}${url}`, headers: superuser, ...(payload ? { payload } : {}) });
  const detail = (res: LightMyRequestResponse) => errorEnvelope.parse(res.json()).detail;

  async function newClient(name: string) {
    return (await createOrganisation(t.db, { name, subscription: 'none' })).client.id;
  }
  const create = (clientId: string, start: string, end: string, over: object = {}) =>
    call('POST', paths.subscriptions, { client_id: clientId, package_id: standardId, max_users: 3, fair_use: 1, start_date: start, expire_date: end, ...over });
  async function created(clientId: string, start: string, end: string, over: object = {}): Promise<Subscription> {
    const res = await create(clientId, start, end, over);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(SUBSCRIPTION_CREATED);
    return successEnvelope(subscriptionSchema).parse(res.json()).data;
  }
  async function list(query: string) {
    const res = await call('GET', `${paths.subscriptions}?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(subscriptionList).parse(res.json()).data;
  }

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    standardId = (await findPackageByType(t.db, 'standard'))!.id;
    premiumId = (await findPackageByType(t.db, 'premium'))!.id;
  });
  afterAll(() => t.close());

  it('lists the packages with their features, standard and premium among them', async () => {
    const res = await call('GET', paths.packages);
    const packages = successEnvelope(packageList).parse(res.json()).data;
    expect(packages.find((p) => p.type === 'standard')).toEqual({ id: standardId, type: 'standard', features: ['browsing', 'reasoning'] });
    expect(packages.find((p) => p.type === 'premium')).toEqual({ id: premiumId, type: 'premium', features: ['browsing', 'image_generation', 'reasoning'] });
  });

  it('refuses a period meeting an existing one on every edge, with the message for where it meets', async () => {
    const clientId = await newClient('Edges Org');
    const start = '2031-03-01T00:00:00.000Z';
    const end = '2031-03-31T00:00:00.000Z';
    const existing = await created(clientId, start, end);
    expect(existing).toMatchObject({ start_date: start, expire_date: end, status: 'upcoming', package_name: 'standard' });

    const refusals: [string, string, 'start' | 'end' | 'cover', string][] = [
      // Both ends are in force, so touching is overlapping (documented in shared/subscription-periods.ts and the README).
      [end, '2031-04-30T00:00:00.000Z', 'start', 'starts at the instant the existing one ends'],
      ['2031-02-01T00:00:00.000Z', start, 'end', 'ends at the instant the existing one starts'],
      ['2031-03-10T00:00:00.000Z', '2031-04-10T00:00:00.000Z', 'start', 'starts inside'],
      ['2031-02-10T00:00:00.000Z', '2031-03-10T00:00:00.000Z', 'end', 'ends inside'],
      ['2031-03-10T00:00:00.000Z', '2031-03-20T00:00:00.000Z', 'start', 'lies inside'],
      [start, end, 'start', 'is the same period'],
      ['2031-02-10T00:00:00.000Z', '2031-04-10T00:00:00.000Z', 'cover', 'covers it'],
    ];
    for (const [from, to, kind, why] of refusals) {
      const res = await create(clientId, from, to);
      expect(res.statusCode, why).toBe(400);
      const body = errorEnvelope.parse(res.json());
      expect(body.detail, why).toBe(overlapMessage(kind, existing));
      expect(body.code, why).toBe('subscription_overlap');
      expect(body.fields, why).toEqual({ [kind === 'end' ? 'expire_date' : 'start_date']: body.detail });
    }
    // A millisecond apart on either side is no overlap.
    await created(clientId, shift(end, 1), '2031-04-30T00:00:00.000Z');
    await created(clientId, '2031-02-01T00:00:00.000Z', shift(start, -1));
    expect((await list(`client_id=${clientId}`)).total).toBe(3);
  });

  it('checks all of the client\'s subscriptions, not only a first page, and never another client\'s', async () => {
    const clientId = await newClient('Long History Org');
    // Twelve yearly subscriptions in the past (more than a page of 10), written directly as history.
    for (let year = 2001; year <= 2012; year++) {
      await insertSubscription(t.db, {
        client_id: clientId,
        package_id: standardId,
        max_users: 1,
        fair_use: 1,
        start_date: `${year}-01-01T00:00:00.000Z`,
        expire_date: `${year}-12-31T00:00:00.000Z`,
      });
    }
    const history = await list(`client_id=${clientId}&sort_by=start_date&sort_order=desc`);
    expect(history).toMatchObject({ total: 12, total_pages: 2, limit: 10, page: 1 });
    expect(history.subscriptions.map((s) => s.start_date.slice(0, 4))).not.toContain('2001');
    // The oldest, on the second page of the newest-first history, still refuses an overlap.
    const res = await create(clientId, '2001-06-01T00:00:00.000Z', '2001-07-01T00:00:00.000Z');
    expect(res.statusCode).toBe(400);
    expect(detail(res)).toBe(overlapMessage('start', { start_date: '2001-01-01T00:00:00.000Z', expire_date: '2001-12-31T00:00:00.000Z' }));
    // Covering many reports the earliest of them.
    const covering = await create(clientId, '2000-06-01T00:00:00.000Z', '2013-07-01T00:00:00.000Z');
    expect(detail(covering)).toBe(overlapMessage('cover', { start_date: '2001-01-01T00:00:00.000Z', expire_date: '2001-12-31T00:00:00.000Z' }));
    // Another client's periods do not count.
    await created(await newClient('Neighbour Org'), '2001-06-01T00:00:00.000Z', '2001-07-01T00:00:00.000Z');
  });

  it('refuses an expiry not after the start, an unknown or missing package, bad numbers and dates without a time zone', async () => {
    const clientId = await newClient('Validation Org');
    const same = await create(clientId, '2032-01-01T00:00:00.000Z', '2032-01-01T00:00:00.000Z');
    expect(same.statusCode).toBe(400);
    expect(errorEnvelope.parse(same.json()).fields).toEqual({ expire_date: EXPIRY_NOT_AFTER_START });
    expect(detail(await create(clientId, '2032-02-01T00:00:00.000Z', '2032-01-01T00:00:00.000Z'))).toBe(EXPIRY_NOT_AFTER_START);
    expect(detail(await create(clientId, '2032-01-01T00:00:00Z', '2033-01-01T00:00:00Z', { package_id: 'nope' }))).toBe(PACKAGE_NOT_FOUND);
    expect(detail(await create(clientId, '2032-01-01T00:00:00Z', '2033-01-01T00:00:00Z', { package_id: undefined }))).toBe(PACKAGE_REQUIRED);
    for (const over of [{ max_users: 0 }, { max_users: 2.5 }, { max_users: -1 }, { fair_use: 0 }, { fair_use: 1.1 }, { max_users: '3' }]) {
      const res = await create(clientId, '2032-01-01T00:00:00Z', '2033-01-01T00:00:00Z', over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(Object.keys(errorEnvelope.parse(res.json()).fields ?? {}), JSON.stringify(over)).toEqual(Object.keys(over));
    }
    const local = await create(clientId, '2032-01-01T00:00', '2033-01-01T00:00:00Z');
    expect(errorEnvelope.parse(local.json()).fields).toEqual({ start_date: DATE_INVALID('Start date') });
    for (const [start, end] of [['2032-02-30T00:00:00Z', '2033-01-01T00:00:00Z'], ['1969-12-31T23:59:59Z', '2033-01-01T00:00:00Z'], ['2032-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00']]) {
      const res = await create(clientId, start, end);
      expect(res.statusCode, `${start} ${end}`).toBe(400);
      expect(Object.keys(errorEnvelope.parse(res.json()).fields ?? {}), `${start} ${end}`).toEqual([start.startsWith('2032-01') ? 'expire_date' : 'start_date']);
    }
    // An offset is read as the instant it names and stored in UTC.
    const offset = await created(clientId, '2032-01-01T08:00:00+08:00', '2033-01-01T00:00:00Z');
    expect(offset.start_date).toBe('2032-01-01T00:00:00.000Z');
    const unknown = await create('no-such-client', '2040-01-01T00:00:00Z', '2041-01-01T00:00:00Z');
    expect(unknown.statusCode).toBe(404);
    expect(detail(unknown)).toBe(CLIENT_NOT_FOUND);
    expect(await list(`client_id=${clientId}`)).toMatchObject({ total: 1 });
  });

  it('derives each status from the dates, sorts as asked, and filters the one in force', async () => {
    const clientId = await newClient('Status Org');
    const expired = await created(clientId, iso(-400), iso(-35));
    const older = await created(clientId, iso(-30), iso(-1));
    const active = await created(clientId, iso(-1 + 1 / 24), iso(30), { package_id: premiumId });
    const upcoming = await created(clientId, iso(31), iso(60));
    expect([expired.status, older.status, active.status, upcoming.status]).toEqual(['expired', 'expired', 'active', 'upcoming']);

    const byStatus = await list(`client_id=${clientId}&sort_by=status,start_date&sort_order=desc,desc`);
    expect(byStatus.subscriptions.map((s) => s.id)).toEqual([active.id, upcoming.id, older.id, expired.id]);
    const byStartAsc = await list(`client_id=${clientId}&sort_by=start_date&sort_order=asc`);
    expect(byStartAsc.subscriptions.map((s) => s.id)).toEqual([expired.id, older.id, active.id, upcoming.id]);
    // Without a sort: the Subscriptions tab's, status then start, each descending.
    expect((await list(`client_id=${clientId}`)).subscriptions.map((s) => s.id)).toEqual(byStatus.subscriptions.map((s) => s.id));

    const inForce = await list(`client_id=${clientId}&status=active`);
    expect(inForce.subscriptions.map((s) => s.id)).toEqual([active.id]);
    expect(inForce.subscriptions[0]).toMatchObject({ package_name: 'premium', package: { type: 'premium', start_date: active.start_date, end_date: active.expire_date } });
    expect((await list(`client_id=${clientId}&status=expired`)).total).toBe(2);
    expect((await list(`client_id=${clientId}&status=upcoming`)).subscriptions.map((s) => s.id)).toEqual([upcoming.id]);
    expect((await list(`client_id=${clientId}&limit=3&page=2`)).subscriptions.map((s) => s.id)).toEqual([expired.id]);

    const client = (await call('GET', `/clients/${clientId}`)).json().data;
    expect(client.subscription.id).toBe(active.id);

    const mismatch = await call('GET', `${paths.subscriptions}?client_id=${clientId}&sort_by=status,start_date&sort_order=desc`);
    expect(mismatch.statusCode).toBe(400);
    expect(detail(mismatch)).toBe(SORT_ORDER_MISMATCH);
    expect((await call('GET', `${paths.subscriptions}?client_id=${clientId}&sort_by=password`)).statusCode).toBe(400);
    expect((await call('GET', `${paths.subscriptions}?client_id=${clientId}&sort_order=up`)).statusCode).toBe(400);
    expect((await call('GET', `${paths.subscriptions}?client_id=${clientId}&status=paused`)).statusCode).toBe(400);
    expect((await call('GET', paths.subscriptions)).statusCode).toBe(400);
    expect((await call('GET', `${paths.subscriptions}?client_id=no-such-client`)).statusCode).toBe(404);
  });

  it('turns a subscription active at its start and expired after its expiry', async () => {
    const clientId = await newClient('Boundary Org');
    // Starting a moment from now: upcoming, then active once the start has passed.
    const soon = await created(clientId, new Date(Date.now() + 300).toISOString(), iso(1));
    expect(soon.status).toBe('upcoming');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await list(`client_id=${clientId}&status=active`)).subscriptions.map((s) => s.id)).toEqual([soon.id]);

    const other = await newClient('Ending Org');
    const ending = await created(other, iso(-1), new Date(Date.now() + 300).toISOString());
    expect(ending.status).toBe('active');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await list(`client_id=${other}`)).subscriptions[0].status).toBe('expired');
    expect((await list(`client_id=${other}&status=active`)).total).toBe(0);
  });
});
