import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_UPLOAD_MAX_MB } from '../contract/documents-constants';
import { parseSecretKey } from './lib/secret-box';
import type { S3StorageConfig } from './platform/s3-file-storage';

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
  /** Seals the OAuth client secrets in the database (AES-256-GCM): 32 bytes as 64 hex digits or base64. */
  OAUTH_SECRET_KEY: z
    .string()
    .refine((v) => parseSecretKey(v) !== undefined, { error: 'must be 32 bytes written as 64 hex digits or as base64 (openssl rand -base64 32)' })
    .optional(),
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
  // Per person: uploads per minute (a full message of 20 files fits), feedback per hour, prompt saves per minute.
  UPLOAD_RATE_LIMIT_PER_USER: positiveInt(30),
  FEEDBACK_RATE_LIMIT_PER_USER: positiveInt(10),
  PROMPT_RATE_LIMIT_PER_USER: positiveInt(20),
  /** One person's whole prompt library: how many prompts, and how many characters in all. */
  PROMPT_LIBRARY_MAX_PROMPTS: positiveInt(500),
  PROMPT_LIBRARY_MAX_CHARS: positiveInt(1_000_000),
  /** Stored files per organisation, in MB: '2048' for every package, 'premium=51200,free=512' per package, or both. */
  STORAGE_QUOTA_MB: z
    .string()
    .refine(isStorageQuota, {
      error: 'must be a number of MB, or a comma-separated list of package=MB pairs such as premium=51200,free=1024',
    })
    .optional(),
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
  /** How many of the offline responder's words each streamed delta carries (the browser suite sends 3 at a time). */
  OFFLINE_WORDS_PER_DELTA: z.coerce.number().int().min(1).max(1000).default(1),
  /** Largest upload accepted (MB); larger files are answered 413 and never stored. */
  UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(1024).default(DEFAULT_UPLOAD_MAX_MB),
  /** argon2id work per new password hash: 'default' (argon2's own) everywhere but the test suites, which set 'low'. */
  PASSWORD_HASH_COST: z.enum(['default', 'low'], { error: 'must be default or low' }).default('default'),

  // Web browsing (server/services/chat/tools/web-search.ts): no SEARCH_PROVIDER, and a browsing request says it is not configured.
  SEARCH_PROVIDER: z.enum(['searxng', 'tavily', 'brave'], { error: 'must be searxng, tavily or brave' }).optional(),
  SEARCH_URL: z.url({ error: 'must be an absolute URL such as https://search.example.com' }).optional(),
  SEARCH_API_KEY: z.string().optional(),
  /** host:port pairs the SSRF guard lets through although private (server/services/chat/tools/safe-fetch.ts); empty by default. */
  WEB_FETCH_ALLOW_HOSTS: z
    .string()
    .refine((v) => v.split(',').every((entry) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(entry.trim())), {
      error: 'must be a comma-separated list of host:port pairs such as intranet.example.com:443',
    })
    .optional(),
  // Image generation (server/services/chat/tools/image-generation.ts): no IMAGES_MODEL, and a labelled demo image is made locally.
  IMAGES_MODEL: z.string().max(200).optional(),
  IMAGES_BASE_URL: z.url({ error: 'must be an absolute URL such as https://api.openai.com/v1' }).optional(),
  IMAGES_API_KEY: z.string().optional(),
  IMAGES_SIZE: z.string().regex(/^(\d{2,5}x\d{2,5}|auto)$/, 'must be WIDTHxHEIGHT such as 1024x1024, or auto').default('1024x1024'),
  // Documents (server/services/documents/ingest): no EMBEDDINGS_MODEL, and retrieval is full-text only; no TRANSCRIPTION_MODEL, and
  // audio is kept with a note that it was not transcribed.
  EMBEDDINGS_MODEL: z.string().max(200).optional(),
  EMBEDDINGS_BASE_URL: z.url({ error: 'must be an absolute URL such as https://api.openai.com/v1' }).optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  TRANSCRIPTION_MODEL: z.string().max(200).optional(),
  TRANSCRIPTION_BASE_URL: z.url({ error: 'must be an absolute URL such as https://api.openai.com/v1' }).optional(),
  TRANSCRIPTION_API_KEY: z.string().optional(),
  /** One document's text extraction may take this long (ms, from when its worker starts on it); then it fails alone. */
  EXTRACTION_TIMEOUT_MS: positiveInt(120_000),
  /** Documents extracted at once, each in a worker thread of its own (default: cores - 1, at least 2, at most 4). */
  EXTRACTION_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  /** auto: models known by name to take images (gpt-4o, gpt-4.1, gpt-5, o1/o3/o4, claude, gemini, llava) get them. */
  LLM_VISION: z.enum(['auto', 'true', 'false']).default('auto'),

  // The landing page's contact form (server/services/contact). No RECAPTCHA_SECRET: the form is refused with a 503.
  RECAPTCHA_SITE_KEY: z.string().max(200).optional(),
  RECAPTCHA_SECRET: z.string().max(200).optional(),
  RECAPTCHA_VERIFY_URL: z.url({ error: 'must be an absolute URL' }).default('https://www.google.com/recaptcha/api/siteverify'),
  /** The widget's script for the browser (a test points it at a local one). */
  RECAPTCHA_SCRIPT_URL: z.url({ error: 'must be an absolute URL' }).default('https://www.google.com/recaptcha/api.js'),
  /** Where new leads are mailed; unset: they are only stored (the superuser's Leads list). */
  SALES_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  /** The company's own staff e-mail domain: such an address is told to log in instead of registering. */
  STAFF_EMAIL_DOMAIN: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a domain such as tanya.my').default('tanya.my'),
  CONTACT_RATE_LIMIT_PER_IP: positiveInt(5),

  // Single sign-on (server/services/identity/sso). The providers' issuers, '{tenant}' filled from the client's
  // OAuth configuration; tests point them at a local OpenID provider.
  MICROSOFT_ISSUER: z.string().default('https://login.microsoftonline.com/{tenant}/v2.0'),
  GOOGLE_ISSUER: z.url({ error: 'must be an absolute URL' }).default('https://accounts.google.com'),
  // LDAP sign-in (server/services/identity/ldap): a directory that does not answer within this is reported down.
  LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5_000),

  // Several instances (README "Running several instances"): Redis carries live replies to every instance.
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  /** Before every key and channel of ours, so deployments (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be up to 64 letters, digits and : _ . -').default('tanya:'),
  // Background jobs (server/platform/jobs): a job whose instance died is taken up by a live one after this (up to twice
  // it with Redis); ingestion runs this many documents at once per instance with Redis (BullMQ).
  JOB_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // Files in an S3-compatible bucket instead of DATA_DIR/files (server/platform/s3-file-storage.ts): S3_BUCKET turns it on.
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3 to 63 lowercase letters, digits, dots, dashes)').optional(),
  S3_ENDPOINT: z.url({ error: 'must be an absolute URL such as https://minio.example.com:9000' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  /** GET /metrics asks for `Authorization: Bearer <token>` when set; open otherwise (keep it on a private network). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
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
  /** Whether the conversation's images go to the model with the question (LLM_VISION; auto: by model name). */
  vision: 'auto' | 'always' | 'never';
  historyTokens: number;
  /** LLM_PRICES, on top of the built-in table in server/llm/prices.ts. */
  prices: Record<string, ModelPrice>;
  offlineTokenDelayMs: number;
  offlineWordsPerDelta: number;
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
  /** OAUTH_SECRET_KEY: undefined, and OAuth configurations cannot be added (nor the server start once some exist). */
  oauthSecretKey: Buffer | undefined;
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
    /** Uploads per person per minute, counted before the file is read. */
    uploadsPerUser: RateLimitRule;
    /** Feedback and issue reports per person per hour. */
    feedbackPerUser: RateLimitRule;
    /** Prompt library saves (new prompts and edits) per person per minute. */
    promptsPerUser: RateLimitRule;
  };
  /** The most one person's prompt library holds (the 20,000 characters of one prompt are the contract's). */
  promptLibrary: { maxPrompts: number; maxChars: number };
  /**
   * STORAGE_QUOTA_MB, on top of the built-in table in services/storage-quota.ts: MB of stored files per package
   * name; '*' is every package the variable does not name.
   */
  storageQuotaMb: Record<string, number>;
  llm: LlmConfig;
  tools: ToolsConfig;
  documents: DocumentsConfig;
  /** UPLOAD_MAX_MB: the largest document or image a person may upload, in MB (1024 * 1024 bytes). */
  uploadMaxMb: number;
  /** PASSWORD_HASH_COST: 'low' only in tests (see services/passwords.ts). */
  passwordHashCost: 'default' | 'low';
  contactForm: ContactFormConfig;
  sso: { microsoftIssuer: string; googleIssuer: string };
  ldap: { timeoutMs: number };
  /** REDIS_URL: undefined for one process on its own. A secret (it may hold a password): never log it. */
  redisUrl: string | undefined;
  redisPrefix: string;
  /** JOB_LEASE_MS and INGEST_CONCURRENCY. */
  jobs: { leaseMs: number; ingestConcurrency: number };
  /** METRICS_TOKEN, a secret. */
  metricsToken: string | undefined;
  /** S3_*: undefined keeps files under DATA_DIR/files. The secret key is a secret. */
  s3: S3StorageConfig | undefined;
}

export interface ContactFormConfig {
  /** Shown to the browser; undefined disables the form's Submit. */
  recaptchaSiteKey: string | undefined;
  /** A secret: never log it or return it. Undefined: the endpoint refuses (503), it never takes unverified leads. */
  recaptchaSecret: string | undefined;
  recaptchaVerifyUrl: string;
  recaptchaScriptUrl: string;
  salesEmail: string | undefined;
  staffEmailDomain: string;
  /** Leads per address per hour. */
  perIp: RateLimitRule;
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
    oauthSecretKey: e.OAUTH_SECRET_KEY === undefined ? undefined : parseSecretKey(e.OAUTH_SECRET_KEY),
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
      uploadsPerUser: { limit: e.UPLOAD_RATE_LIMIT_PER_USER, windowMs: MINUTE },
      feedbackPerUser: { limit: e.FEEDBACK_RATE_LIMIT_PER_USER, windowMs: HOUR },
      promptsPerUser: { limit: e.PROMPT_RATE_LIMIT_PER_USER, windowMs: MINUTE },
    },
    promptLibrary: { maxPrompts: e.PROMPT_LIBRARY_MAX_PROMPTS, maxChars: e.PROMPT_LIBRARY_MAX_CHARS },
    storageQuotaMb: parseStorageQuota(e.STORAGE_QUOTA_MB),
    llm,
    tools: parseTools(e, llm),
    documents: parseDocuments(e, llm),
    uploadMaxMb: e.UPLOAD_MAX_MB,
    passwordHashCost: e.PASSWORD_HASH_COST,
    contactForm: {
      recaptchaSiteKey: e.RECAPTCHA_SITE_KEY,
      recaptchaSecret: e.RECAPTCHA_SECRET,
      recaptchaVerifyUrl: e.RECAPTCHA_VERIFY_URL,
      recaptchaScriptUrl: e.RECAPTCHA_SCRIPT_URL,
      salesEmail: e.SALES_EMAIL,
      staffEmailDomain: e.STAFF_EMAIL_DOMAIN.toLowerCase(),
      perIp: { limit: e.CONTACT_RATE_LIMIT_PER_IP, windowMs: HOUR },
    },
    sso: { microsoftIssuer: e.MICROSOFT_ISSUER, googleIssuer: e.GOOGLE_ISSUER },
    ldap: { timeoutMs: e.LDAP_TIMEOUT_MS },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    jobs: { leaseMs: e.JOB_LEASE_MS, ingestConcurrency: e.INGEST_CONCURRENCY },
    metricsToken: e.METRICS_TOKEN,
    s3: parseS3(e),
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
    offlineWordsPerDelta: e.OFFLINE_WORDS_PER_DELTA,
    vision: ({ auto: 'auto', true: 'always', false: 'never' } as const)[e.LLM_VISION],
  };
}

/** S3_BUCKET turns S3 on; the other S3_* without it, or one half of the key pair, is a mistake said at start. */
function parseS3(e: Env): S3StorageConfig | undefined {
  const problems: string[] = [];
  if (!e.S3_BUCKET) {
    for (const key of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (e[key]) problems.push(`  ${key}: needs S3_BUCKET (the bucket to keep files in)`);
    }
  } else if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push('  S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then finds credentials itself)');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  if (!e.S3_BUCKET) return undefined;
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
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

export interface SearchConfig {
  provider: 'searxng' | 'tavily' | 'brave';
  /** The instance (SearXNG) or the endpoint (Tavily, Brave: their public API unless SEARCH_URL overrides it). */
  url: string | undefined;
  /** A secret: never log it or show it. */
  apiKey: string | undefined;
}

export interface ImagesConfig {
  /** Undefined: the OpenAI API. */
  baseUrl: string | undefined;
  /** A secret: never log it or show it. */
  apiKey: string | undefined;
  model: string;
  size: string;
}

export interface ToolsConfig {
  /** Undefined: web browsing is not configured (a browsing request says so and is answered without the web). */
  search: SearchConfig | undefined;
  /** host:port pairs the SSRF guard lets through although their address is private (tests, a chosen intranet host). */
  webFetchAllowHosts: string[];
  /** Undefined: image requests get a locally drawn, labelled demo image. */
  images: ImagesConfig | undefined;
}

function parseTools(e: Env, llm: LlmConfig): ToolsConfig {
  const problems: string[] = [];
  if (!e.SEARCH_PROVIDER) {
    for (const key of ['SEARCH_URL', 'SEARCH_API_KEY'] as const) {
      if (e[key]) problems.push(`  ${key}: needs SEARCH_PROVIDER (searxng, tavily or brave)`);
    }
  } else if (e.SEARCH_PROVIDER === 'searxng' && !e.SEARCH_URL) {
    problems.push('  SEARCH_URL: required for SearXNG (the instance, such as https://search.example.com)');
  } else if (e.SEARCH_PROVIDER !== 'searxng' && !e.SEARCH_API_KEY) {
    problems.push(`  SEARCH_API_KEY: required for ${e.SEARCH_PROVIDER === 'tavily' ? 'Tavily' : 'Brave Search'}`);
  }
  if (!e.IMAGES_MODEL) {
    for (const key of ['IMAGES_BASE_URL', 'IMAGES_API_KEY'] as const) {
      if (e[key]) problems.push(`  ${key}: needs IMAGES_MODEL (the image model to use)`);
    }
  }
  // Without its own URL the image model sits at the chat model's endpoint and shares its key; with its own URL it
  // never receives the chat model's key (that would hand a secret to another host).
  const imagesBaseUrl = e.IMAGES_BASE_URL ?? llm.primary?.baseUrl;
  const imagesApiKey = e.IMAGES_BASE_URL ? e.IMAGES_API_KEY : (e.IMAGES_API_KEY ?? llm.primary?.apiKey);
  if (e.IMAGES_MODEL && !imagesBaseUrl && !imagesApiKey) {
    problems.push('  IMAGES_API_KEY: required for the OpenAI API (or set IMAGES_BASE_URL to a server that needs no key)');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    search: e.SEARCH_PROVIDER ? { provider: e.SEARCH_PROVIDER, url: e.SEARCH_URL, apiKey: e.SEARCH_API_KEY } : undefined,
    webFetchAllowHosts: (e.WEB_FETCH_ALLOW_HOSTS ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
    images: e.IMAGES_MODEL ? { baseUrl: imagesBaseUrl, apiKey: imagesApiKey, model: e.IMAGES_MODEL, size: e.IMAGES_SIZE } : undefined,
  };
}

export interface DocumentsConfig {
  /** Undefined: no vectors; retrieval is full-text search alone. */
  embeddings: LlmEndpoint | undefined;
  /** Undefined: audio is kept with a note that it was not transcribed. */
  transcription: LlmEndpoint | undefined;
  /** EXTRACTION_TIMEOUT_MS and EXTRACTION_WORKERS (server/services/documents/ingest/extraction-worker.ts). */
  extraction: { timeoutMs: number; workers: number };
}

function parseDocuments(e: Env, llm: LlmConfig): DocumentsConfig {
  const problems: string[] = [];
  const endpoint = (prefix: 'EMBEDDINGS' | 'TRANSCRIPTION'): LlmEndpoint | undefined => {
    const model = e[`${prefix}_MODEL`];
    const ownUrl = e[`${prefix}_BASE_URL`];
    const ownKey = e[`${prefix}_API_KEY`];
    if (!model) {
      if (ownUrl) problems.push(`  ${prefix}_BASE_URL: needs ${prefix}_MODEL`);
      if (ownKey) problems.push(`  ${prefix}_API_KEY: needs ${prefix}_MODEL`);
      return undefined;
    }
    // As for images: without its own URL the model sits at the chat model's endpoint and shares its key; with its
    // own URL it never receives the chat model's key.
    const baseUrl = ownUrl ?? llm.primary?.baseUrl;
    const apiKey = ownUrl ? ownKey : (ownKey ?? llm.primary?.apiKey);
    if (!baseUrl && !apiKey) problems.push(`  ${prefix}_API_KEY: required for the OpenAI API (or set ${prefix}_BASE_URL to a server that needs no key)`);
    return { baseUrl, apiKey, model };
  };
  const documents = {
    embeddings: endpoint('EMBEDDINGS'),
    transcription: endpoint('TRANSCRIPTION'),
    // A core for each worker but one (the server's own thread); at least 2, so one slow file never holds up the
    // others; at most 4 by default, as each worker may take 1 GB of memory.
    extraction: { timeoutMs: e.EXTRACTION_TIMEOUT_MS, workers: e.EXTRACTION_WORKERS ?? Math.min(4, Math.max(2, availableParallelism() - 1)) },
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return documents;
}

const QUOTA_ENTRY = /^(?:([a-z0-9_-]+)\s*=\s*)?(\d{1,9})$/i;

function isStorageQuota(value: string): boolean {
  return value.split(',').every((entry) => {
    const match = QUOTA_ENTRY.exec(entry.trim());
    return match !== null && Number(match[2]) >= 1;
  });
}

/** '2048,premium=51200' -> { '*': 2048, premium: 51200 }; package names in lower case, as storageQuotaMbOf reads them. */
function parseStorageQuota(value: string | undefined): Record<string, number> {
  const quota: Record<string, number> = {};
  for (const entry of (value ?? '').split(',')) {
    const match = QUOTA_ENTRY.exec(entry.trim());
    if (match) quota[match[1]?.toLowerCase() ?? '*'] = Number(match[2]);
  }
  return quota;
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
