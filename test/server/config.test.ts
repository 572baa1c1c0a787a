import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { resolveJwtSecret } from '../../server/services/jwt-secret';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      sqlitePath: path.resolve('./data/tanya.db'),
      databaseUrl: undefined,
      jwtSecret: undefined,
      publicUrl: 'http://localhost:8080',
      smtpUrl: undefined,
      mailFrom: 'Tanya <no-reply@tanya.local>',
      demoPassword: undefined,
      logLevel: 'info',
      staticDir: path.resolve('./dist'),
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 30,
      trustProxy: false,
    });
    expect(c.rateLimits).toEqual({
      loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
      loginPerEmail: { limit: 10, windowMs: 15 * 60_000 },
      resetPerIp: { limit: 10, windowMs: 3_600_000 },
      resetPerEmail: { limit: 3, windowMs: 3_600_000 },
    });
  });

  it('reads values, derives PUBLIC_URL from PORT, treats empty values as unset', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    const c = loadConfig({
      PUBLIC_URL: 'https://tanya.example.com/',
      DATABASE_URL: 'postgres://u@db/tanya',
      SMTP_URL: '',
      LOGIN_RATE_LIMIT_PER_EMAIL: '4',
      TRUST_PROXY: 'true',
    });
    expect(c.publicUrl).toBe('https://tanya.example.com');
    expect(c.databaseUrl).toBe('postgres://u@db/tanya');
    expect(c.smtpUrl).toBeUndefined();
    expect(c.rateLimits.loginPerEmail.limit).toBe(4);
    expect(c.trustProxy).toBe(true);
  });

  it('fails fast, naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'not a url', JWT_SECRET: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    for (const key of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'JWT_SECRET']) expect(message).toContain(`${key}:`);
  });
});

describe('resolveJwtSecret', () => {
  it('generates a secret once in DATA_DIR/jwt-secret (0600) and reuses it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tanya-secret-'));
    try {
      const first = resolveJwtSecret({ dataDir, jwtSecret: undefined });
      expect(first.length).toBeGreaterThanOrEqual(64);
      expect(resolveJwtSecret({ dataDir, jwtSecret: undefined })).toBe(first);
      expect(fs.statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
      expect(resolveJwtSecret({ dataDir, jwtSecret: 'x'.repeat(40) })).toBe('x'.repeat(40));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
