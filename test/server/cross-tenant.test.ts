import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/api-paths';
import { OTHER_ORGANISATION_DEPARTMENTS } from '../../contract/departments-constants';
import { conversationList } from '../../contract/chat';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { OTHER_ORGANISATION_FEEDBACK } from '../../contract/feedback-constants';
import { ORGANISATION_NOT_FOUND, OTHER_ORGANISATION_USERS } from '../../contract/users-constants';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { bearer, login } from './helpers/fixtures';
import { apiOperations, requestFor, type Operation } from './helpers/openapi-inputs';
import { inputVariants, mappedIdKeys, multipartProbe } from './helpers/tenant-walk';
import { seedPlainTenant, seedRichTenant, type PlainTenant, type RichTenant } from './helpers/tenants';
import { dbKind } from './helpers/test-app';

type Caller = 'B user' | 'B admin' | 'superuser';

interface Exception {
  callers: Caller[];
  reason: string;
}

const SUPERUSER_READS_EVERY_ORGANISATION: Exception = {
  callers: ['superuser'],
  reason: "the superuser reads the organisation `client_id` names, or every organisation's when it is absent (OpenAPI description)",
};

const SUPERUSER_MANAGES_PEOPLE: Exception = {
  callers: ['superuser'],
  reason: 'the superuser manages the people of any organisation, and is answered the person changed (issue 30)',
};

const SUPERUSER_CONFIGURES_CLIENTS: Exception = {
  callers: ['superuser'],
  reason: "superuser only: a client's OAuth configurations and system prompts (OpenAPI description)",
};

/**
 * Calls the walk leaves out because the caller may really change A with them (a probe would change A's people, and
 * the walk checks that A is unchanged); their own tests cover them (superuser-users.test.ts).
 */
const MAY_CHANGE_A: Record<string, Exception> = {
  'PATCH /api/v1/users/{id}': SUPERUSER_MANAGES_PEOPLE,
};

/** The superuser's client administration (superuser only): every client's records, A's too, are theirs to manage. */
const CLIENT_ADMINISTRATION = [
  'GET /api/v1/clients/',
  'GET /api/v1/clients/{id}',
  'PUT /api/v1/clients/{id}',
  'PATCH /api/v1/clients/{id}/status',
  'GET /api/v1/subscriptions/',
  'POST /api/v1/subscriptions/',
  'GET /api/v1/quotas/client/{id}',
  'GET /api/v1/usage-logs/clients/{id}/departments',
];
const SUPERUSER_MANAGES_CLIENTS: Exception = {
  callers: ['superuser'],
  reason: "client administration is the superuser's alone (403 for everyone else): every client, by its id (OpenAPI description)",
};

/** Where A's text may show to someone of no part of A, with the spec's (OpenAPI description's) reason. */
const MAY_SEE_A: Record<string, Exception> = {
  ...Object.fromEntries(CLIENT_ADMINISTRATION.map((route) => [route, SUPERUSER_MANAGES_CLIENTS])),
  'GET /api/v1/users/': SUPERUSER_READS_EVERY_ORGANISATION,
  'PATCH /api/v1/users/{id}/status': SUPERUSER_MANAGES_PEOPLE,
  'GET /api/v1/system-prompts/preview': {
    callers: ['superuser'],
    reason: "the system prompts editor's preview composes A's prompt as A's people get it, with A's global policy",
  },
  'GET /api/v1/feedbacks/inbox': SUPERUSER_READS_EVERY_ORGANISATION,
  'GET /api/v1/departments/': SUPERUSER_READS_EVERY_ORGANISATION,
  // An image in a message is an <img>, which cannot send a token (a PNG's bytes hold no marker anyway).
  'GET /api/v1/files/{key}': { callers: ['B user', 'B admin', 'superuser'], reason: 'no token: the key is the capability' },
};

/**
 * Where a call naming A's records is not refused, with the reason. Everywhere else it is 403 or 404, or a 400 naming
 * the field that holds A's id (a department of another organisation is "not found" in a profile change).
 */
const MAY_NAME_A: Record<string, Exception> = {
  ...MAY_SEE_A,
  'POST /api/v1/auth/resend-activation': {
    callers: ['superuser'],
    reason: "`user_id`: admins (own organisation; another's person is 404) and the superuser",
  },
  'PATCH /api/v1/users/{id}': SUPERUSER_MANAGES_PEOPLE,
  'GET /api/v1/clients/{id}/oauth-configs': SUPERUSER_CONFIGURES_CLIENTS,
  'POST /api/v1/clients/{id}/oauth-configs': SUPERUSER_CONFIGURES_CLIENTS,
  'GET /api/v1/clients/{id}/ldap-settings': SUPERUSER_CONFIGURES_CLIENTS,
  'PUT /api/v1/clients/{id}/ldap-settings': SUPERUSER_CONFIGURES_CLIENTS,
  'POST /api/v1/system-prompts/': SUPERUSER_CONFIGURES_CLIENTS,
  'POST /api/v1/chat/messages': {
    callers: ['B user', 'B admin', 'superuser'],
    reason: "document_ids not the sender's are passed over (contract/chat.ts); what the sender then holds is read below",
  },
  'GET /api/v1/usage-logs/admin/client/report': {
    callers: ['B admin'],
    reason: "department_ids and unit_ids filter the caller's own usage rows: another organisation's match none",
  },
  'GET /api/v1/usage-logs/admin/user/report': {
    callers: ['B admin'],
    reason: "department_ids and unit_ids filter the caller's own usage rows: another organisation's match none",
  },
};

/** Refused as if A's record did not exist: 403, 404, or 400 naming a field that held A's id. */
function refused(res: LightMyRequestResponse, idsOfA: string[]): boolean {
  if (res.statusCode === 403 || res.statusCode === 404) return true;
  if (res.statusCode !== 400) return false;
  const fields = errorEnvelope.safeParse(res.json()).data?.fields ?? {};
  return idsOfA.some((name) => name in fields);
}

/** The lists that take `client_id`, and the sentence refusing someone who names another organisation. */
const CLIENT_ID_REFUSALS: Record<string, string> = {
  'GET /api/v1/users/': OTHER_ORGANISATION_USERS,
  'GET /api/v1/feedbacks/inbox': OTHER_ORGANISATION_FEEDBACK,
  'GET /api/v1/departments/': OTHER_ORGANISATION_DEPARTMENTS,
};

/**
 * Routes that take `client_id` but only the superuser may call: refused for the role to everyone else (the walk above
 * checks that), so they are not the lists below that narrow a caller to their own organisation.
 */
const SUPERUSER_ONLY_CLIENT_ID: Record<string, string> = {
  'GET /api/v1/system-prompts/preview': "the system prompts editor's preview, superuser only",
  'GET /api/v1/subscriptions/': "a client's subscriptions, superuser only",
};

const routeOf = (op: Operation) => `${op.method} ${op.path}`;

describe(`one tenant scope: another organisation and the superuser at organisation A's records (${dbKind})`, () => {
  let s: ChatServer;
  let a: RichTenant;
  let b: PlainTenant;
  let superuser: Record<string, string>;
  let operations: Operation[];
  /** Routes whose body is a multipart upload (the OpenAPI document gives them no JSON properties to fill). */
  let multipart: Set<string>;

  beforeAll(async () => {
    s = await startChatServer();
    a = await seedRichTenant(s, 'A');
    b = await seedPlainTenant(s, 'B');
    superuser = bearer((await login(s.app, 'super@demo.local')).access_token);
    operations = await apiOperations(s.app);
    const doc = (await s.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    multipart = new Set(
      Object.entries(doc.paths).flatMap(([path, byMethod]) =>
        Object.entries(byMethod)
          .filter(([, op]) => op.requestBody?.content?.['multipart/form-data'])
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      ),
    );
  }, 60_000);
  afterAll(() => s.close());

  const get = (url: string, headers: Record<string, string>) => s.app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers });

  /** Everything of A's as A's own people read it: compared before and after the walk. */
  async function readA() {
    // Started together, awaited in turn: one failing read names itself.
    const reads = {
      conversations: get('/chat/conversations', a.user.headers),
      messages: get(`/chat/conversations/${a.conversationId}/messages`, a.user.headers),
      documents: get(`/documents/?conversation_id=${a.conversationId}`, a.user.headers),
      share: get(`/shares/${a.shareId}`, a.user.headers),
      shares: get('/shares/', a.user.headers),
      prompt: get(`/prompt-libraries/${a.promptId}`, a.user.headers),
      me: get('/users/me', a.user.headers),
      users: get('/users/?page_size=100', a.admin.headers),
      departments: get('/departments/?paginate=false', a.admin.headers),
      policy: get('/global-policy/', a.admin.headers),
      inbox: get('/feedbacks/inbox?page_size=100', a.admin.headers),
      usage: get('/usage-logs/admin/user/report', a.admin.headers),
    };
    const read: Record<string, unknown> = {};
    for (const [name, pending] of Object.entries(reads)) {
      const res = await pending;
      expect(res.statusCode, `A reads its ${name}: ${res.body}`).toBe(200);
      read[name] = res.json().data;
    }
    return read;
  }

  /** Every conversation of the caller with its messages and documents. */
  async function readConversations(headers: Record<string, string>) {
    const list = successEnvelope(conversationList).parse((await get('/chat/conversations?page_size=100', headers)).json()).data;
    expect(list.total).toBeLessThanOrEqual(list.page_size);
    const read: unknown[] = [];
    for (const { id } of list.conversations) {
      read.push((await get(`/chat/conversations/${id}/messages`, headers)).json(), (await get(`/documents/?conversation_id=${id}`, headers)).json());
    }
    return read;
  }

  it('every route, called by B\'s user, B\'s admin and the superuser with A\'s ids: no 5xx, none of A\'s text, A unchanged', async () => {
    const before = await readA();
    // A's records are really there to leak: each read as A shows A's marker.
    for (const [name, data] of Object.entries(before)) expect(JSON.stringify(data), name).toContain(a.marker);

    const callers: [Caller, Record<string, string>][] = [
      ['B user', b.user.headers],
      ['B admin', b.admin.headers],
      ['superuser', superuser],
    ];
    const failures: string[] = [];
    const leaks: string[] = [];
    const notRefused: string[] = [];
    let calls = 0;
    const usedIds = new Set<string>();
    for (const op of operations) {
      const variants = inputVariants(op, a);
      for (const [caller, headers] of callers) {
        if (MAY_CHANGE_A[routeOf(op)]?.callers.includes(caller)) continue;
        for (const { values, idsOfA, idKeys } of variants) {
          for (const key of idKeys) usedIds.add(key);
          const request = requestFor(op, values, headers);
          if (multipart.has(routeOf(op))) {
            const { payload, contentType } = multipartProbe();
            Object.assign(request, { payload, headers: { ...headers, 'content-type': contentType } });
          }
          const res = await s.app.inject(request);
          calls += 1;
          const where = `${caller}: ${request.method} ${request.url} ${'payload' in request && typeof request.payload === 'string' ? request.payload : ''}`;
          const mayAct = (exceptions: Record<string, Exception>) => exceptions[routeOf(op)]?.callers.includes(caller) ?? false;
          if (res.statusCode >= 500) failures.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          const seen = `${JSON.stringify(res.headers)}\n${res.body}`.toLowerCase();
          if (!mayAct(MAY_SEE_A) && seen.includes(a.marker.toLowerCase())) leaks.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (idsOfA.length > 0 && !mayAct(MAY_NAME_A) && !refused(res, idsOfA)) {
            notRefused.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
      }
    }
    console.log(`cross-tenant walk (${dbKind}): ${operations.length} operations x ${callers.length} callers, ${calls} calls with their input variants`);

    expect(failures).toEqual([]);
    expect(leaks).toEqual([]);
    expect(notRefused).toEqual([]);
    expect(await readA()).toEqual(before);
    // What the callers hold now (a question sent with A's document_ids among them) carries nothing of A's.
    for (const [caller, headers] of callers) {
      expect(JSON.stringify(await readConversations(headers)), caller).not.toContain(a.marker);
    }
    // Every exception names a route that exists: one left behind by a renamed route would excuse nothing, silently.
    expect(operations.map(routeOf)).toEqual(expect.arrayContaining(Object.keys(MAY_NAME_A)));
    // The walk handed out every kind of A's ids (conversation, message, document, file, share, prompt, department,
    // unit, person, organisation), each on some route.
    expect([...usedIds].sort()).toEqual(mappedIdKeys(a).sort());
  }, 120_000);

  it('the lists that take client_id: another organisation is 403 with the sentence, the superuser gets the one named, an unknown one is 404', async () => {
    const lists = operations.filter(
      (op) => op.method === 'GET' && op.inputs.some((i) => i.in === 'query' && i.name === 'client_id') && !(routeOf(op) in SUPERUSER_ONLY_CLIENT_ID),
    );
    expect(lists.map(routeOf).sort()).toEqual(Object.keys(CLIENT_ID_REFUSALS).sort());
    for (const op of lists) {
      const route = routeOf(op);
      const list = (clientId: string, headers: Record<string, string>) => s.app.inject(requestFor(op, { query: { client_id: clientId } }, headers));

      const asAdmin = await list(a.clientId, b.admin.headers);
      expect(asAdmin.statusCode, route).toBe(403);
      expect(errorEnvelope.parse(asAdmin.json()).detail, route).toBe(CLIENT_ID_REFUSALS[route]);
      expect(asAdmin.body).not.toContain(a.marker);

      // B's user: the lists of people and feedback are refused for the role before the organisation is looked at.
      const asUser = await list(a.clientId, b.user.headers);
      expect(asUser.statusCode, route).toBe(403);
      expect([CLIENT_ID_REFUSALS[route], 'You do not have permission to do this'], route).toContain(errorEnvelope.parse(asUser.json()).detail);
      expect(asUser.body).not.toContain(a.marker);

      const own = await list(b.clientId, b.admin.headers);
      expect(own.statusCode, route).toBe(200);
      expect(own.body, route).not.toContain(a.marker);

      // The superuser naming A reads what A's admin reads, row for row, and every row is A's (carries A's marker).
      const named = await list(a.clientId, superuser);
      expect(named.statusCode, route).toBe(200);
      expect(named.json().data, route).toEqual((await list(a.clientId, a.admin.headers)).json().data);
      const rows = Object.values(named.json().data as Record<string, unknown>).find(Array.isArray) ?? [];
      expect(rows.length, route).toBeGreaterThan(0);
      for (const row of rows) expect(JSON.stringify(row), route).toContain(a.marker);
      expect(named.body, route).not.toContain(b.marker);

      // Naming none, the superuser reads every organisation's: the exception the walk allows.
      const every = await s.app.inject(requestFor(op, { query: { page_size: 100 } }, superuser));
      expect(every.statusCode, route).toBe(200);
      expect(every.body, route).toContain(a.marker);
      expect(every.body, route).toContain(b.marker);

      const unknown = await list('no-such-organisation', superuser);
      expect(unknown.statusCode, route).toBe(404);
      expect(errorEnvelope.parse(unknown.json()).detail, route).toBe(ORGANISATION_NOT_FOUND);
    }
  });
});
