import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { renewAnsweringLeases } from '../db/repositories/conversations';
import { saveStreamingReplies } from '../db/repositories/messages';
import { isoFromNow } from '../db/timestamps';
import { describeError } from '../llm/types';
import { LEASE_MS, LEASE_RENEW_MS } from './reply-leases';

/** A reply's growing text is written at most this often while it streams (and once at the end, by its writer). */
export const SAVE_INTERVAL_MS = 250;
/**
 * Under load the saves of all replies together may take at most this share of the time: with a thousand
 * replies streaming, a save round on synchronous SQLite blocks the event loop, so rounds are spaced out.
 */
const SAVE_TIME_SHARE = 0.1;
/** Replies per statement, with the event loop free in between (other requests go on meanwhile). */
const SAVE_SLICE = 50;

/**
 * The database writes of every reply an app is writing, pooled: partial saves of all replies go out together
 * in few statements, and one heartbeat renews all their answering leases. One per app (see replyWriterFor).
 */
export interface ReplyWriter {
  /** Renews this lease with all the others the app holds, until released. */
  holdLease(conversationId: string, owner: string): void;
  releaseLease(owner: string): void;
  /** Queues the reply's text to be saved with the next round. */
  save(messageId: string, content: string): void;
  /** Forgets a queued save: the reply's writer saves its final text itself. */
  discard(messageId: string): void;
}

export function createReplyWriter(db: Kysely<Database>, log: FastifyBaseLogger): ReplyWriter {
  const leases = new Map<string, string>();
  let heartbeat: NodeJS.Timeout | undefined;
  let renewing = false;
  const renew = () => {
    if (renewing || leases.size === 0) return;
    renewing = true;
    const held = [...leases].map(([owner, conversationId]) => ({ owner, conversationId }));
    renewAnsweringLeases(db, held, isoFromNow(LEASE_MS))
      .then((renewed) => {
        if (renewed < held.length) log.warn({ lost: held.length - renewed }, 'answering leases were lost (their replies went on longer than the lease without renewing)');
      })
      .catch((err: unknown) => log.warn({ err: describeError(err) }, 'renewing the answering leases failed'))
      .finally(() => {
        renewing = false;
      });
  };

  const pending = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let lastRoundAt = 0;
  let interval = SAVE_INTERVAL_MS;
  const schedule = () => {
    timer ??= setTimeout(() => void saveRound(), Math.max(0, lastRoundAt + interval - performance.now()));
  };
  const saveRound = async () => {
    lastRoundAt = performance.now();
    const batch = [...pending].map(([id, content]) => ({ id, content }));
    pending.clear();
    let busy = 0;
    try {
      for (let i = 0; i < batch.length; i += SAVE_SLICE) {
        if (i > 0) await yieldToLoop();
        const started = performance.now();
        await saveStreamingReplies(db, batch.slice(i, i + SAVE_SLICE));
        busy += performance.now() - started;
      }
    } catch (err) {
      log.warn({ err: describeError(err) }, 'saving partial replies failed');
    }
    interval = Math.max(SAVE_INTERVAL_MS, busy / SAVE_TIME_SHARE);
    timer = undefined;
    if (pending.size > 0) schedule();
  };

  return {
    holdLease(conversationId, owner) {
      leases.set(owner, conversationId);
      if (!heartbeat) {
        heartbeat = setInterval(renew, LEASE_RENEW_MS);
        heartbeat.unref();
      }
    },
    releaseLease(owner) {
      leases.delete(owner);
      if (leases.size === 0 && heartbeat) {
        clearInterval(heartbeat);
        heartbeat = undefined;
      }
    },
    save(messageId, content) {
      pending.set(messageId, content);
      schedule();
    },
    discard(messageId) {
      pending.delete(messageId);
    },
  };
}

/** Pooling is per app (its database): several apps in one process (tests) each get their own. */
const writers = new WeakMap<Kysely<Database>, ReplyWriter>();

export function replyWriterFor(db: Kysely<Database>, log: FastifyBaseLogger): ReplyWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = createReplyWriter(db, log);
    writers.set(db, writer);
  }
  return writer;
}
