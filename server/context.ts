import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Database } from './db/database';
import type { JobQueue } from './platform/jobs/queue';
import type { ChatModel } from './llm/types';
import type { BackgroundTasks } from './platform/background';
import type { FileStorage } from './platform/file-storage';
import type { Mailer } from './platform/mailer';
import type { Metrics } from './platform/metrics';
import type { RateLimitStore } from './platform/rate-limit';
import type { StreamHub } from './platform/stream-hub';
import type { FairUseMeter } from './services/organisation/fair-use';
import type { ReplyStops } from './services/chat/reply-stops';
import type { ReplyWriter } from './services/chat/reply-writer';
import type { TokenService } from './services/identity/tokens';

/** What route handlers and services share; built once per app in app.ts. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  tokens: TokenService;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  /** Replies being written (closures, not jobs: a reply lives with the process streaming it). */
  background: BackgroundTasks;
  /** Named background jobs (ingestion, titles, mails, upkeep), claimed by any live process: server/platform/jobs/. */
  jobs: JobQueue;
  /** For work outside a request (background replies, titles); request handlers use request.log. */
  log: FastifyBaseLogger;
  /** The model answering chats (offline demo responder, one endpoint, or primary with backup). */
  llm: ChatModel;
  /** Saves the replies this process is writing, pooled, and renews their answering leases with one heartbeat. */
  replies: ReplyWriter;
  /** The replies this process is writing that a person may stop (here or through another instance). */
  replyStops: ReplyStops;
  /** Each organisation's fair use of the month (its settled part kept per process, so a question sums minutes). */
  fairUse: FairUseMeter;
  /** Carries replies being written to the requests following them. */
  streams: StreamHub;
  /** Aborted when the app closes and the grace period for unfinished replies is over. */
  closing: AbortSignal;
  /** Uploaded and generated files (DATA_DIR/files by default); rows in `documents` hold their storage keys. */
  files: FileStorage;
  /** What GET /metrics reports (server/platform/metrics.ts). */
  metrics: Metrics;
  /** REDIS_URL's connection, shared by what uses Redis; undefined for one process on its own. */
  redis: Redis | undefined;
}
