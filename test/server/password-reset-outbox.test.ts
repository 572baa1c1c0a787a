import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../server/db/repositories/users';
import { sha256Hex } from '../../server/services/identity/tokens';
import { errorDetail, login, post } from './helpers/fixtures';
import { waitFor } from './helpers/recording-mailer';
import { resetTokenFrom } from './helpers/smtp-peer';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers/test-app';

async function waitForFiles(dir: string, count: number, timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    if (files.length >= count) return files;
    if (Date.now() > deadline) throw new Error(`expected ${count} .eml files in ${dir}, found ${files.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('password reset without SMTP (outbox)', () => {
  let t: TestApp;
  let outbox: string;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } });
    outbox = path.join(t.config.dataDir, 'outbox');
  });
  afterAll(() => t.close());

  it('writes an .eml file with the link into DATA_DIR/outbox and logs where, never the link', async () => {
    const res = await post(t.app, '/auth/request-reset-password', { email: 'newhire@demo.local' });
    expect(res.statusCode).toBe(200);
    const [file] = await waitForFiles(outbox, 1);
    const raw = await fs.readFile(path.join(outbox, file), 'utf8');
    expect(raw).toMatch(/^To: newhire@demo\.local$/m);
    expect(raw).toMatch(/^Subject: Reset your Tanya password$/m);
    const token = resetTokenFrom(raw);

    await waitFor(() => logLines.some((line) => line.includes('"file"')));
    const written = logLines.map((line) => JSON.parse(line) as { msg: string; file?: string }).find((l) => l.file);
    expect(written).toMatchObject({ msg: 'password reset mail written to the outbox', file: path.join(outbox, file) });
    const log = logLines.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain(`${PUBLIC_URL}/reset-password/`);

    const reset = await post(t.app, '/auth/reset-password', { token, new_password: 'newhire-new-pass' });
    expect(reset.statusCode).toBe(200);
    await login(t.app, 'newhire@demo.local', 'newhire-new-pass');
  });

  it('stores the reset token only as a hash', async () => {
    const files = await waitForFiles(outbox, 1);
    await post(t.app, '/auth/request-reset-password', { email: 'admin@demo.local' });
    const [, file] = await waitForFiles(outbox, files.length + 1);
    const token = resetTokenFrom(await fs.readFile(path.join(outbox, file), 'utf8'));
    const admin = await findUserByEmail(t.db, 'admin@demo.local');
    const rows = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', admin!.id).execute();
    expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses unknown, expired and malformed tokens, and weak passwords', async () => {
    const unknown = await post(t.app, '/auth/reset-password', { token: 'x'.repeat(43), new_password: 'long-enough-1' });
    expect(unknown.statusCode).toBe(400);
    expect(errorDetail(unknown)).toBe('Invalid or expired reset token');

    const before = (await waitForFiles(outbox, 1)).length;
    await post(t.app, '/auth/request-reset-password', { email: 'super@demo.local' });
    const files = await waitForFiles(outbox, before + 1);
    const token = resetTokenFrom(await fs.readFile(path.join(outbox, files[files.length - 1]), 'utf8'));

    const weak = await post(t.app, '/auth/reset-password', { token, new_password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(errorDetail(weak)).toBe('Password must be at least 8 characters');
    expect(weak.json().fields).toEqual({ new_password: 'Password must be at least 8 characters' });

    const missing = await post(t.app, '/auth/reset-password', { new_password: 'long-enough-1' });
    expect(errorDetail(missing)).toBe('Invalid or missing reset token');

    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('token_hash', '=', sha256Hex(token))
      .execute();
    const expired = await post(t.app, '/auth/reset-password', { token, new_password: 'long-enough-1' });
    expect(expired.statusCode).toBe(400);
    expect(errorDetail(expired)).toBe('Invalid or expired reset token');
  });

  it('choosing a new password ends every other reset link of that person', async () => {
    const request = async () => {
      const before = (await waitForFiles(outbox, 1)).length;
      await post(t.app, '/auth/request-reset-password', { email: 'user@demo.local' });
      const files = await waitForFiles(outbox, before + 1);
      return resetTokenFrom(await fs.readFile(path.join(outbox, files[files.length - 1]), 'utf8'));
    };
    const first = await request();
    const second = await request();
    expect((await post(t.app, '/auth/reset-password', { token: second, new_password: 'chosen-with-the-second' })).statusCode).toBe(200);
    const stale = await post(t.app, '/auth/reset-password', { token: first, new_password: 'chosen-with-the-first' });
    expect(stale.statusCode).toBe(400);
    expect(errorDetail(stale)).toBe('Invalid or expired reset token');
    await login(t.app, 'user@demo.local', 'chosen-with-the-second');
  });

  it('answers the same 200 for an unknown email and writes no mail', async () => {
    const before = (await fs.readdir(outbox)).length;
    const res = await post(t.app, '/auth/request-reset-password', { email: 'who@nowhere.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('If an account exists for that email, password reset instructions have been sent.');
    await new Promise((r) => setTimeout(r, 100));
    expect((await fs.readdir(outbox)).length).toBe(before);
  });
});
