import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';

/**
 * Every job the server knows, by name, with its JSON payload. Payloads carry ids only, never secrets: a mail's link
 * is made when the mail is sent (the database keeps only hashes of tokens, and the jobs table is no exception).
 */
export interface JobPayloads {
  /** Extracts, chunks and embeds an uploaded or generated document (server/services/documents/ingest/ingest-document.ts). */
  'ingest-document': { documentId: string };
  /** Names a conversation after its first exchange (server/services/chat/titles.ts). */
  'conversation-title': { userId: string; conversationId: string; messageId: string };
  /** A fresh reset link for an active person, mailed (server/services/identity/reset-mail.ts). */
  'password-reset-mail': { userId: string };
  /** A fresh activation link for a person who has not activated yet, mailed (server/services/identity/activation-mail.ts). */
  'activation-mail': { userId: string };
  /** How a person of an organisation that signs in with its directory signs in, mailed (server/services/identity/directory-welcome-mail.ts). */
  'directory-welcome-mail': { userId: string };
  /** A stored contact form lead, mailed to SALES_EMAIL (server/services/contact/lead-mail.ts). */
  'contact-lead-mail': { leadId: string };
  /** Periodic upkeep (server/upkeep.ts): repeating jobs, each claimed by one process at a time. */
  'upkeep-interrupted-replies': Record<string, never>;
  'upkeep-rate-limits': Record<string, never>;
  'upkeep-unsent-uploads': Record<string, never>;
  'upkeep-failed-jobs': Record<string, never>;
}

export type JobName = keyof JobPayloads;

/** What a handler is told about the run it is doing. */
export interface JobRun {
  id: string;
  /** 1 on the first try. */
  attempt: number;
  /** Aborted when the app closes (after its grace period) or this process has lost the job's lease. */
  signal: AbortSignal;
}

export interface JobHandler<N extends JobName = JobName> {
  run(payload: JobPayloads[N], run: JobRun): Promise<void>;
  /** Tries before the job is recorded as failed (default: the queue's). */
  maxAttempts?: number;
  /** After the last attempt failed (or the processes running it kept dying): records what the job's owner sees. */
  gaveUp?(payload: JobPayloads[N], error: string): Promise<void>;
}

export type JobHandlers = { [N in JobName]: JobHandler<N> };

/**
 * Thrown by a handler that was cut off (the app is closing) before its work was done: the job goes back to the queue
 * without spending an attempt, for another live process or the next start.
 */
export class JobCutOff extends Error {
  override name = 'JobCutOff';
}

export interface EnqueueOptions {
  /** One job per key: enqueueing a key that is still queued, running or failed does nothing. */
  key?: string;
  /** Not before this long from now. */
  delayMs?: number;
  /** Written in the caller's transaction: the job exists only if the transaction commits. */
  trx?: Kysely<Database>;
}

/** A job recorded as already taken by this process; `run` does its one attempt here and now. */
export interface HeldJob {
  /** Resolves when the handler has succeeded; rejects with its error (the job is then retried or failed as usual). */
  run(): Promise<void>;
}

/** Jobs of one name in one state, as GET /metrics reports them (queued: waiting or delayed; failed: given up). */
export interface JobCount {
  name: string;
  status: 'queued' | 'running' | 'failed';
  n: number;
}

/** The wait before a failed job's next try: `retryBaseMs` before the second, doubled for each further one, up to `retryMaxMs`. */
export function retryWaitMs(opts: { retryBaseMs: number; retryMaxMs: number }, attemptsMade: number): number {
  return Math.min(opts.retryMaxMs, opts.retryBaseMs * 2 ** Math.max(0, attemptsMade - 1));
}

/**
 * The job queue, a port: the SQL queue (sql-queue.ts, the jobs table of either database) implements it, and with
 * Redis the BullMQ queue (bull-queue.ts) takes the jobs that suit it. Work is claimed by any live process sharing the queue, never by two at once,
 * and a job whose process died is taken up by another once its lease lapses.
 */
export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options?: EnqueueOptions): Promise<void>;
  /**
   * Records a job as leased by this process and hands it back to run now, so the caller can wait for its outcome (a
   * request that says whether a mail went out). If the process dies before it ends, another takes it up once the lease
   * lapses. With `trx`, recorded in the caller's transaction.
   */
  hold<N extends JobName>(name: N, payload: JobPayloads[N], options?: Pick<EnqueueOptions, 'trx'>): Promise<HeldJob>;
  /**
   * Makes `name` a repeating job run every `everyMs` by one of the processes sharing the queue (the first run now
   * with `immediately`, or when the schedule kept in the queue says so). Only by processes that declared it.
   */
  repeat(name: JobName, everyMs: number, options?: { immediately?: boolean }): Promise<void>;
  /** How many jobs wait, run or have failed, by name (every instance sharing the queue counts the same). */
  counts(): Promise<JobCount[]>;
  /** Starts claiming jobs (app ready). */
  start(): void;
  /** Claims nothing more; resolves once the jobs running here have ended (the app closes). */
  stop(): Promise<void>;
}

/** A queue as the app holds it: told the handlers this process runs jobs with (only those are taken here). */
export interface RunnableJobQueue extends JobQueue {
  handle(handlers: Partial<JobHandlers>): void;
}
