import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createDb } from '../../server/db/create-db';
import { CHECKPOINT_INTERVAL_MS } from '../../server/db/sqlite-checkpointer';
import { createMailer } from '../../server/platform/mailer';
import { resolveJwtSecret } from '../../server/services/identity/jwt-secret';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('DATA_DIR and the SQLite files', () => {
  let root: string;
  let previousUmask: number | undefined;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tanya-perms-'));
    // A permissive umask (the usual 022 or a shared 002) must not open anything up.
    try {
      previousUmask = process.umask(0o002);
    } catch {
      // Worker threads cannot change the umask; the default one still shows the difference.
    }
  });
  afterAll(() => {
    if (previousUmask !== undefined) process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR 0700 and the database, its -wal and -shm files 0600', async () => {
    const config = loadConfig({ DATA_DIR: path.join(root, 'sqlite', 'data') });
    const db = createDb(config);
    try {
      // A write through WAL mode creates the -wal and -shm files beside the database.
      await sql`create table probe (x integer)`.execute(db);
      await sql`insert into probe (x) values (1)`.execute(db);
      expect(mode(config.dataDir)).toBe(0o700);
      for (const file of [config.sqlitePath, `${config.sqlitePath}-wal`, `${config.sqlitePath}-shm`]) {
        expect({ file: path.basename(file), mode: mode(file).toString(8) }).toEqual({ file: path.basename(file), mode: '600' });
      }
    } finally {
      await db.destroy();
    }
  });

  it('is closed for good when destroy() returns: the checkpointer has let go and the -wal and -shm files are gone', async () => {
    const config = loadConfig({ DATA_DIR: path.join(root, 'closed') });
    const db = createDb(config);
    await sql`create table probe (x integer)`.execute(db);
    await sql`insert into probe (x) values (1)`.execute(db);
    // Past a checkpoint round, the checkpointer's own connection holds the WAL open too.
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_INTERVAL_MS + 300));
    await db.destroy();
    // SQLite's last close folds the WAL back and removes both files; were the checkpointer still closing, that would
    // happen while the caller removes or backs up the directory.
    expect(fs.readdirSync(config.dataDir)).toEqual([path.basename(config.sqlitePath)]);
  });

  it('creates DATA_DIR 0700 for the generated JWT secret and the mail outbox too', async () => {
    const secretConfig = loadConfig({ DATA_DIR: path.join(root, 'secret') });
    resolveJwtSecret(secretConfig);
    expect(mode(secretConfig.dataDir)).toBe(0o700);
    expect(mode(path.join(secretConfig.dataDir, 'jwt-secret'))).toBe(0o600);

    const mailConfig = loadConfig({ DATA_DIR: path.join(root, 'mail') });
    const mailer = createMailer(mailConfig);
    const { file } = await mailer.send({ to: 'a@b.test', subject: 's', text: 't', html: '<p>t</p>' });
    mailer.close();
    expect(mode(mailConfig.dataDir)).toBe(0o700);
    expect(mode(path.dirname(file!))).toBe(0o700);
    expect(mode(file!)).toBe(0o600);
  });

  it('leaves an existing DATA_DIR as the operator made it', () => {
    const dir = path.join(root, 'existing');
    fs.mkdirSync(dir, { mode: 0o750 });
    fs.chmodSync(dir, 0o750);
    resolveJwtSecret(loadConfig({ DATA_DIR: dir }));
    expect(mode(dir)).toBe(0o750);
  });
});
