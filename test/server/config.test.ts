import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { resolveJwtSecret } from '../../server/services/identity/jwt-secret';

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
      loginPerIpEmail: { limit: 10, windowMs: 15 * 60_000 },
      loginPerEmail: { limit: 100, windowMs: 15 * 60_000 },
      resetPerIp: { limit: 10, windowMs: 3_600_000 },
      resetPerIpEmail: { limit: 3, windowMs: 3_600_000 },
      messagesPerUser: { limit: 30, windowMs: 60_000 },
      uploadsPerUser: { limit: 30, windowMs: 60_000 },
      feedbackPerUser: { limit: 10, windowMs: 3_600_000 },
      promptsPerUser: { limit: 20, windowMs: 60_000 },
    });
    expect(c.promptLibrary).toEqual({ maxPrompts: 500, maxChars: 1_000_000 });
    expect(c.storageQuotaMb).toEqual({});
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

describe('loadConfig: several instances', () => {
  it('keeps one process on its own by default: no Redis, no metrics token, files on disk', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, metricsToken: undefined, s3: undefined });
  });

  it('reads Redis, the metrics token and S3, and says what is wrong with them', () => {
    const c = loadConfig({ REDIS_URL: 'redis://:pw@cache:6379/2', METRICS_TOKEN: 'a-long-scrape-token', S3_BUCKET: 'tanya-files', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' });
    expect(c).toMatchObject({ redisUrl: 'redis://:pw@cache:6379/2', metricsToken: 'a-long-scrape-token' });
    expect(c.s3).toEqual({ bucket: 'tanya-files', endpoint: 'http://minio:9000', region: 'us-east-1', accessKeyId: undefined, secretAccessKey: undefined, forcePathStyle: true });
    const wrong = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(wrong({ REDIS_URL: 'http://cache:6379' })).toContain('REDIS_URL: must be a redis:// or rediss:// URL');
    expect(wrong({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN: must be at least 16 characters');
    expect(wrong({ S3_BUCKET: 'Tanya_Files' })).toContain('S3_BUCKET: must be an S3 bucket name');
    expect(wrong({ S3_ENDPOINT: 'http://minio:9000' })).toContain('S3_ENDPOINT: needs S3_BUCKET');
    expect(wrong({ S3_BUCKET: 'tanya-files', S3_ACCESS_KEY_ID: 'key' })).toContain('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither');
  });
});

describe('loadConfig: the chat model', () => {
  it('defaults to the offline responder', () => {
    expect(loadConfig({}).llm).toEqual({
      primary: undefined,
      backup: undefined,
      firstTokenTimeoutMs: 30_000,
      maxTokens: undefined,
      reasoning: 'auto',
      vision: 'auto',
      historyTokens: 8_000,
      prices: {},
      offlineTokenDelayMs: 25,
      offlineWordsPerDelta: 1,
    });
  });

  it('reads a primary and a backup; the backup shares the key only at the same endpoint', () => {
    const sameHost = loadConfig({ LLM_BASE_URL: 'https://llm.corp/v1', LLM_API_KEY: 'k1', LLM_MODEL: 'big', LLM_BACKUP_MODEL: 'small' }).llm;
    expect(sameHost.primary).toEqual({ baseUrl: 'https://llm.corp/v1', apiKey: 'k1', model: 'big' });
    expect(sameHost.backup).toEqual({ baseUrl: 'https://llm.corp/v1', apiKey: 'k1', model: 'small' });
    const otherHost = loadConfig({
      LLM_API_KEY: 'k1',
      LLM_MODEL: 'gpt-4o',
      LLM_BACKUP_BASE_URL: 'http://ollama:11434/v1',
      LLM_BACKUP_MODEL: 'llama3.1',
      LLM_FIRST_TOKEN_TIMEOUT_MS: '5000',
      LLM_MAX_TOKENS: '2048',
      LLM_REASONING: 'false',
      OFFLINE_TOKEN_DELAY_MS: '0',
      OFFLINE_WORDS_PER_DELTA: '3',
      LLM_PRICES: '{"llama3.1": {"prompt": 0, "completion": 0}}',
    }).llm;
    expect(otherHost.primary).toEqual({ baseUrl: undefined, apiKey: 'k1', model: 'gpt-4o' });
    expect(otherHost.backup).toEqual({ baseUrl: 'http://ollama:11434/v1', apiKey: undefined, model: 'llama3.1' });
    expect(otherHost).toMatchObject({ firstTokenTimeoutMs: 5000, maxTokens: 2048, reasoning: 'never', offlineTokenDelayMs: 0, offlineWordsPerDelta: 3 });
    expect(otherHost.prices).toEqual({ 'llama3.1': { prompt: 0, completion: 0 } });
  });

  it('fails fast on incomplete or malformed model settings', () => {
    const cases: [Record<string, string>, string][] = [
      [{ LLM_BASE_URL: 'https://llm.corp/v1' }, 'LLM_BASE_URL: needs LLM_MODEL'],
      [{ LLM_MODEL: 'gpt-4o' }, 'LLM_API_KEY: required for the OpenAI API'],
      [{ LLM_BASE_URL: 'https://llm.corp/v1', LLM_MODEL: 'm', LLM_BACKUP_BASE_URL: 'https://b/v1' }, 'LLM_BACKUP_BASE_URL: needs LLM_BACKUP_MODEL'],
      [{ LLM_BACKUP_MODEL: 'small' }, 'LLM_BACKUP_MODEL: needs LLM_MODEL'],
      [{ LLM_PRICES: '{not json' }, 'LLM_PRICES: must be JSON'],
      [{ LLM_PRICES: '{"m": {"prompt": -1, "completion": 1}}' }, 'LLM_PRICES: m.prompt'],
      [{ LLM_BASE_URL: 'not a url' }, 'LLM_BASE_URL: must be an absolute URL'],
      [{ LLM_REASONING: 'maybe' }, 'LLM_REASONING:'],
      [{ LLM_FIRST_TOKEN_TIMEOUT_MS: '0' }, 'LLM_FIRST_TOKEN_TIMEOUT_MS:'],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
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
