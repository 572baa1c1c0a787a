import { isIP } from 'node:net';
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
  /** Seconds in which a just-rotated refresh token may be presented again (two tabs, a retried request). */
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  // Failed sign-ins per 15 minutes; the per-e-mail one is a last resort against attacks from many addresses.
  LOGIN_RATE_LIMIT_PER_IP: positiveInt(30),
  LOGIN_RATE_LIMIT_PER_IP_EMAIL: positiveInt(10),
  LOGIN_RATE_LIMIT_PER_EMAIL: positiveInt(100),
  // Reset requests per hour.
  RESET_RATE_LIMIT_PER_IP: positiveInt(10),
  RESET_RATE_LIMIT_PER_IP_EMAIL: positiveInt(3),
  MESSAGE_RATE_LIMIT_PER_USER: positiveInt(30),
  /** Behind a load balancer: 'true', a hop count, or a comma list of proxy addresses/CIDRs (Fastify trustProxy). */
  TRUST_PROXY: z
    .string()
    .refine(isTrustProxy, {
      error: 'must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges',
    })
    .optional(),

  // The chat model. No LLM_MODEL: the built-in offline demo responder answers (server/llm/offline.ts).
  LLM_BASE_URL: z.url({ error: 'must be an absolute URL such as https://api.openai.com/v1' }).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().max(200).optional(),
  LLM_BACKUP_BASE_URL: z.url({ error: 'must be an absolute URL such as https://api.openai.com/v1' }).optional(),
  LLM_BACKUP_API_KEY: z.string().optional(),
  LLM_BACKUP_MODEL: z.string().max(200).optional(),
  LLM_FIRST_TOKEN_TIMEOUT_MS: positiveInt(30_000),
  LLM_MAX_TOKENS: z.coerce.number().int().min(1).optional(),
  /** auto: only models whose name starts with o1/o3/o4/gpt-5 get reasoning_effort; true/false force it. */
  LLM_REASONING: z.enum(['auto', 'true', 'false']).default('auto'),
  /** How many tokens of earlier messages go with a question (the newest are kept). */
  LLM_HISTORY_TOKENS: positiveInt(8_000),
  LLM_PRICES: z.string().optional(),
  OFFLINE_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(25),
});

/** USD per one million tokens. */
const modelPrice = z.object({ prompt: z.number().min(0), completion: z.number().min(0) }).strict();
const modelPrices = z.record(z.string().min(1), modelPrice);
export type ModelPrice = z.infer<typeof modelPrice>;

export interface LlmEndpoint {
  /** Undefined: the OpenAI API. */
  baseUrl: string | undefined;
  /** A secret: never log it or return it. Undefined for servers that need none (Ollama, vLLM). */
  apiKey: string | undefined;
  model: string;
}

export interface LlmConfig {
  /** Undefined: no model configured, the offline demo responder answers. */
  primary: LlmEndpoint | undefined;
  /** Takes over when the primary fails or stays silent before its first token. */
  backup: LlmEndpoint | undefined;
  firstTokenTimeoutMs: number;
  maxTokens: number | undefined;
  reasoning: 'auto' | 'always' | 'never';
  historyTokens: number;
  /** LLM_PRICES, on top of the built-in table in server/llm/prices.ts. */
  prices: Record<string, ModelPrice>;
  offlineTokenDelayMs: number;
}

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
  /** Seconds in which a just-rotated refresh token may be presented again and gets the same successor. */
  refreshReuseGraceSeconds: number;
  /** Needed for per-IP rate limits behind a proxy: request.ip is then taken from X-Forwarded-For. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  rateLimits: {
    /** Failed sign-ins from one address, whatever the e-mail. */
    loginPerIp: RateLimitRule;
    /** Failed sign-ins for one e-mail from one address. */
    loginPerIpEmail: RateLimitRule;
    /** Failed sign-ins for one e-mail from anywhere: a high last resort, it locks the real person out too. */
    loginPerEmail: RateLimitRule;
    /** Reset requests; over a limit the answer stays the same but nothing is sent. */
    resetPerIp: RateLimitRule;
    resetPerIpEmail: RateLimitRule;
    /** Questions (sends and edits) per person per minute: each one costs a model call. */
    messagesPerUser: RateLimitRule;
  };
  llm: LlmConfig;
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
  const llm = parseLlm(e);
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
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimits: {
      loginPerIp: { limit: e.LOGIN_RATE_LIMIT_PER_IP, windowMs: 15 * MINUTE },
      loginPerIpEmail: { limit: e.LOGIN_RATE_LIMIT_PER_IP_EMAIL, windowMs: 15 * MINUTE },
      loginPerEmail: { limit: e.LOGIN_RATE_LIMIT_PER_EMAIL, windowMs: 15 * MINUTE },
      resetPerIp: { limit: e.RESET_RATE_LIMIT_PER_IP, windowMs: HOUR },
      resetPerIpEmail: { limit: e.RESET_RATE_LIMIT_PER_IP_EMAIL, windowMs: HOUR },
      messagesPerUser: { limit: e.MESSAGE_RATE_LIMIT_PER_USER, windowMs: MINUTE },
    },
    llm,
  };
}

type Env = z.infer<typeof envSchema>;

function parseLlm(e: Env): LlmConfig {
  const problems: string[] = [];
  if (!e.LLM_MODEL) {
    for (const key of ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_BACKUP_MODEL'] as const) {
      if (e[key]) problems.push(`  ${key}: needs LLM_MODEL (the model to use)`);
    }
  } else if (!e.LLM_BASE_URL && !e.LLM_API_KEY) {
    problems.push('  LLM_API_KEY: required for the OpenAI API (or set LLM_BASE_URL to a server that needs no key)');
  }
  for (const key of ['LLM_BACKUP_BASE_URL', 'LLM_BACKUP_API_KEY'] as const) {
    if (e[key] && !e.LLM_BACKUP_MODEL) problems.push(`  ${key}: needs LLM_BACKUP_MODEL`);
  }
  const prices = parsePrices(e.LLM_PRICES, problems);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);

  const primary = e.LLM_MODEL ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL } : undefined;
  // Without its own URL the backup is another model at the primary's endpoint, so it shares the primary's key;
  // with its own URL it never receives the primary's key (that would hand a secret to another host).
  const backup =
    primary && e.LLM_BACKUP_MODEL
      ? {
          baseUrl: e.LLM_BACKUP_BASE_URL ?? primary.baseUrl,
          apiKey: e.LLM_BACKUP_BASE_URL ? e.LLM_BACKUP_API_KEY : (e.LLM_BACKUP_API_KEY ?? primary.apiKey),
          model: e.LLM_BACKUP_MODEL,
        }
      : undefined;
  return {
    primary,
    backup,
    firstTokenTimeoutMs: e.LLM_FIRST_TOKEN_TIMEOUT_MS,
    maxTokens: e.LLM_MAX_TOKENS,
    reasoning: ({ auto: 'auto', true: 'always', false: 'never' } as const)[e.LLM_REASONING],
    historyTokens: e.LLM_HISTORY_TOKENS,
    prices,
    offlineTokenDelayMs: e.OFFLINE_TOKEN_DELAY_MS,
  };
}

function parsePrices(value: string | undefined, problems: string[]): Record<string, ModelPrice> {
  if (value === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    problems.push('  LLM_PRICES: must be JSON such as {"my-model": {"prompt": 0.5, "completion": 1.5}} (USD per 1M tokens)');
    return {};
  }
  const parsed = modelPrices.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  problems.push(`  LLM_PRICES: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message} (expected {"model": {"prompt": USD, "completion": USD}} per 1M tokens)`);
  return {};
}

// What proxy-addr (Fastify's trustProxy) accepts in a list: addresses, CIDR ranges, and its named ranges.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustProxy(value: string): boolean {
  if (/^(true|false|\d+)$/.test(value)) return true;
  return value.split(',').every((entry) => {
    const [address, bits, extra] = entry.trim().split('/');
    if (PROXY_NAMES.has(address) && bits === undefined) return true;
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
}

/**
 * Without it, request.ip is the connecting address and X-Forwarded-For is ignored (nobody can fake an address);
 * behind a proxy every person then shares the proxy's address, and so its rate limits.
 */
function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (!/^\d+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}
