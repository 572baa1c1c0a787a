import path from 'node:path';
import { z } from 'zod';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR)')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: z.url({ error: 'must be an absolute URL such as https://tanya.example.com' }).optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().default('Tanya <no-reply@tanya.local>'),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_DIR: z.string().default('./dist'),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(900),
  REFRESH_TOKEN_TTL_DAYS: positiveInt(30),
  LOGIN_RATE_LIMIT_PER_IP: positiveInt(30),
  LOGIN_RATE_LIMIT_PER_EMAIL: positiveInt(10),
  RESET_RATE_LIMIT_PER_IP: positiveInt(10),
  RESET_RATE_LIMIT_PER_EMAIL: positiveInt(3),
  /** Behind a load balancer: 'true', a hop count, or a comma list of proxy addresses (Fastify trustProxy). */
  TRUST_PROXY: z.string().optional(),
});

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  /** postgres:// URL, or undefined for SQLite at `sqlitePath`. */
  databaseUrl: string | undefined;
  sqlitePath: string;
  /** Undefined: generated once and kept in DATA_DIR/jwt-secret (see services/jwt-secret.ts). */
  jwtSecret: string | undefined;
  /** Origin plus optional path, without a trailing slash. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  demoPassword: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Absolute path. */
  staticDir: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Needed for per-IP rate limits behind a proxy: request.ip is then taken from X-Forwarded-For. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  rateLimits: {
    loginPerIp: RateLimitRule;
    loginPerEmail: RateLimitRule;
    resetPerIp: RateLimitRule;
    resetPerEmail: RateLimitRule;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty variables count as unset: `FOO=` in a .env file or compose file means "use the default". */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1].trim() !== ''));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sqlitePath: path.join(dataDir, 'tanya.db'),
    jwtSecret: e.JWT_SECRET,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    staticDir: path.resolve(e.STATIC_DIR),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimits: {
      loginPerIp: { limit: e.LOGIN_RATE_LIMIT_PER_IP, windowMs: 15 * MINUTE },
      loginPerEmail: { limit: e.LOGIN_RATE_LIMIT_PER_EMAIL, windowMs: 15 * MINUTE },
      resetPerIp: { limit: e.RESET_RATE_LIMIT_PER_IP, windowMs: HOUR },
      resetPerEmail: { limit: e.RESET_RATE_LIMIT_PER_EMAIL, windowMs: HOUR },
    },
  };
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (!/^\d+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}
