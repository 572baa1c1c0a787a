import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect, type APIRequestContext } from '@playwright/test';
import { accounts, isLocalServer, localDataDir, password } from './accounts';
import { mailsTo } from './mail-api';
import { outboxMails } from './outbox';

// Setting up activation scenarios: people registered through the API as the demo admin, their links read from the
// mail (the local server's outbox, or a deployment's mail-catcher: mail-api.ts), and the states only time makes (an
// expired link) made by changing the local server's SQLite database directly.

const activationLinkIn = (eml: string) => eml.match(/https?:\/\/[^\s"<>]+\/activate\/[A-Za-z0-9_-]+/)?.[0];

/** Every activation link mailed to `to`, oldest first: from the local server's outbox, or the mail-catcher's API. */
async function activationLinks(to: string): Promise<string[]> {
  if (!isLocalServer) return (await mailsTo(to)).map(activationLinkIn).filter((link): link is string => link !== undefined);
  const links: string[] = [];
  for (const eml of await outboxMails()) {
    if (!new RegExp(`^To: ${to.replace(/[.]/g, '\\.')}\\r?$`, 'm').test(eml)) continue;
    const link = activationLinkIn(eml);
    if (link) links.push(link);
  }
  return links;
}

/** The path (/activate/{code}) of the `nth` (1-based) activation mail to `to`, waiting for it to arrive. */
export async function activationPath(to: string, nth = 1): Promise<string> {
  await expect.poll(async () => (await activationLinks(to)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(nth);
  return new URL((await activationLinks(to))[nth - 1]!).pathname;
}

export const codeOf = (activationPath: string) => activationPath.split('/').pop()!;

export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/auth/login', { data: { email: accounts.admin, password } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** A person registered by the demo admin (as the Register page does); returns their id. */
export async function registerPerson(request: APIRequestContext, token: string, email: string, name = 'Path Person'): Promise<string> {
  const res = await request.post('/api/v1/auth/register', { headers: { Authorization: `Bearer ${token}` }, data: { name, email, role: 'user' } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

export async function setPersonStatus(request: APIRequestContext, token: string, id: string, status: 'active' | 'inactive') {
  const res = await request.patch(`/api/v1/users/${id}/status?status=${status}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * Deactivates the people a test registered (found by address), so repeated runs (QA against staging) do not use up
 * the demo organisation's seats: people cannot be deleted, and inactive ones hold no seat.
 */
export async function deactivateRegistered(request: APIRequestContext, emails: string[]) {
  if (emails.length === 0) return;
  const token = await adminToken(request);
  for (const email of emails.splice(0)) {
    const res = await request.get('/api/v1/users/', { headers: { Authorization: `Bearer ${token}` }, params: { search: email } });
    expect(res.ok(), await res.text()).toBe(true);
    const found = ((await res.json()) as { data: { users: { id: string; email: string }[] } }).data.users;
    for (const person of found.filter((u) => u.email === email.toLowerCase())) await setPersonStatus(request, token, person.id, 'inactive');
  }
}

export async function activateByApi(request: APIRequestContext, code: string, newPassword: string) {
  const res = await request.post('/api/v1/auth/activate', { data: { activation_code: code, new_password: newPassword } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Runs `change` on the local server's database (WAL: the running server sees it at once). */
function onDatabase(change: (db: Database.Database, codeHash: string) => void, code: string) {
  const db = new Database(`${localDataDir}/tanya.db`);
  try {
    db.pragma('busy_timeout = 5000');
    change(db, createHash('sha256').update(code).digest('hex'));
  } finally {
    db.close();
  }
}

/** The link's 72 hours are over. */
export function expireActivation(code: string) {
  onDatabase((db, hash) => db.prepare('update activations set expires_at = ? where code_hash = ?').run(new Date(Date.now() - 60_000).toISOString(), hash), code);
}

/** The link was never issued (e.g. mistyped): the server knows no such code. */
export function forgetActivation(code: string) {
  onDatabase((db, hash) => db.prepare('delete from activations where code_hash = ?').run(hash), code);
}
