import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { renewAnsweringLeases } from '../../db/repositories/conversations';
import { saveStreamingReplies } from '../../db/repositories/messages';
import { isoFromNow } from '../../db/timestamps';
import { describeError } from '../../llm/types';
import { LEASE_MS, LEASE_RENEW_MS } from './reply-leases';

/**
 * A reply's growing text is saved once this long has passed since its last save, or sooner when SAVE_CHARS are
 * waiting (whichever comes first), and once at the end by its writer: a crash loses at most one interval of it.
 */
export const SAVE_INTERVAL_MS = 250;
/** Unsaved characters of one reply that call for a save without waiting for the interval. */
export const SAVE_CHARS = 200;
/**
 * A round also takes the replies whose interval ends within this long: saved a little early, together, in one
 * statement, instead of a round of a few rows for each.
 */
const SAVE_GATHER_MS = 50;
/** Replies per statement, with the event loop free in between (other requests go on meanwhile). */
const SAVE_SLICE = 50;

export type SaveBatch = (replies: ReadonlyArray<{ id: string; content: string }>) => Promise<void>;

/** When each reply being written is saved (see SAVE_INTERVAL_MS, SAVE_CHARS); the statements are `saveBatch`'s. */
export interface ReplySaves {
  /** The reply's whole text so far. */
  save(messageId: string, content: string): void;
  /** Forgets the reply: its writer saves the final text itself. A save of it in flight still ends (harmlessly). */
  discard(messageId: string): void;
}

interface Unsaved {
  /** The whole text so far. */
  content: string;
  /** Characters of it saved (or being saved). */
  savedChars: number;
  /** When its last save was sent (or when it was first seen). */
  savedAt: number;
  /** A save of it is in flight: it is never in two at once. */
  saving: boolean;
  /** Its last save failed: tried again once the interval has passed (never at once, over and over). */
  failed: boolean;
}

export function createReplySaves(saveBatch: SaveBatch, log: FastifyBaseLogger): ReplySaves {
  const replies = new Map<string, Unsaved>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let immediate: NodeJS.Immediate | undefined;

  // Replies only grow while they stream: a length says what is saved.
  const dueAt = (r: Unsaved) => (!r.failed && r.content.length - r.savedChars >= SAVE_CHARS ? 0 : r.savedAt + SAVE_INTERVAL_MS);
  const waiting = (r: Unsaved) => !r.saving && (r.failed || r.content.length !== r.savedChars);

  /** Makes sure a round runs when the first waiting reply falls due (at once: on the next turn of the loop). */
  const schedule = (at: number) => {
    const now = performance.now();
    if (at <= now) {
      immediate ??= setImmediate(round);
      return;
    }
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(round, at - now);
  };

  const round = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    immediate = undefined;
    const now = performance.now();
    const batch: Array<{ id: string; reply: Unsaved }> = [];
    let next = Infinity;
    for (const [id, reply] of replies) {
      if (!waiting(reply)) continue;
      const due = dueAt(reply);
      if (due <= now + SAVE_GATHER_MS) batch.push({ id, reply });
      else next = Math.min(next, due);
    }
    if (next < Infinity) schedule(next);
    if (batch.length === 0) return;
    for (const { reply } of batch) reply.saving = true;
    void saveAll(batch);
  };

  const saveAll = async (batch: Array<{ id: string; reply: Unsaved }>) => {
    for (let i = 0; i < batch.length; i += SAVE_SLICE) {
      if (i > 0) await yieldToLoop();
      // Each slice takes the text as it is when the slice goes out (a later slice of a big round goes out later).
      const slice = batch.slice(i, i + SAVE_SLICE).filter(({ id, reply }) => replies.get(id) === reply);
      const sentAt = performance.now();
      for (const { reply } of slice) {
        reply.failed = false;
        reply.savedChars = reply.content.length;
        reply.savedAt = sentAt;
      }
      try {
        if (slice.length > 0) await saveBatch(slice.map(({ id, reply }) => ({ id, content: reply.content })));
      } catch (err) {
        log.warn({ err: describeError(err) }, 'saving partial replies failed');
        for (const { reply } of slice) reply.failed = true;
      }
      for (const { id, reply } of slice) {
        reply.saving = false;
        // More came while it was saved (or the save failed): it waits for its own turn, as after any save.
        if (replies.get(id) === reply && waiting(reply)) schedule(dueAt(reply));
      }
    }
  };

  return {
    save(messageId, content) {
      let reply = replies.get(messageId);
      if (!reply) {
        // Its empty start was saved with the exchange, just now.
        reply = { content, savedChars: 0, savedAt: performance.now(), saving: false, failed: false };
        replies.set(messageId, reply);
      }
      reply.content = content;
      if (waiting(reply)) schedule(dueAt(reply));
    },
    discard(messageId) {
      replies.delete(messageId);
    },
  };
}

/**
 * The database writes of every reply an app is writing, pooled: partial saves of all replies go out together
 * in few statements, and one heartbeat renews all their answering leases. One per app, in its context (AppContext.replies).
 */
export interface ReplyWriter {
  /** Renews this lease with all the others the app holds, until released. */
  holdLease(conversationId: string, owner: string): void;
  releaseLease(owner: string): void;
  /** The reply's text so far, saved in time (see SAVE_INTERVAL_MS, SAVE_CHARS) with the other replies due then. */
  save(messageId: string, content: string): void;
  /** Forgets the reply: its writer saves its final text itself. */
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
        // A conversation deleted while its reply is written (a person's ordinary act) loses its lease too, so the
        // warning names both causes rather than only a lapse.
        if (renewed < held.length) {
          log.warn({ lost: held.length - renewed }, 'answering leases were not renewed: their conversations were deleted, or they lapsed and another instance took them');
        }
      })
      .catch((err: unknown) => log.warn({ err: describeError(err) }, 'renewing the answering leases failed'))
      .finally(() => {
        renewing = false;
      });
  };

  const saves = createReplySaves((replies) => saveStreamingReplies(db, replies), log);

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
    save: saves.save,
    discard: saves.discard,
  };
}
