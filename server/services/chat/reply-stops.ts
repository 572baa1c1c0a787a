import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ReplyStopResult } from '../../../contract/chat';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import { listStopRequests, requestReplyStop } from '../../db/repositories/messages';
import type { UserRecord } from '../../db/repositories/users';
import { describeError } from '../../llm/types';
import { MESSAGE_NOT_FOUND } from './chat';
import { NotFoundError } from '../errors';

/**
 * How often a process looks for stop requests among the replies it writes. A stop asked of this process acts
 * at once; one asked of another instance (behind a load balancer) is seen within this time.
 */
export const STOP_CHECK_MS = 1_000;
/** A stop request waits at most this long for the reply to be saved and its conversation freed. */
const STOP_WAIT_MS = 5_000;

export interface WatchedReply {
  /** Someone asked to stop this reply (its model call has been cancelled). */
  readonly stopped: boolean;
  /**
   * The reply is saved and its lease released: the watch ends, and a stop request waiting for it returns
   * `stopped` (false when the model had already finished as the stop came).
   */
  finished(stopped: boolean): void;
}

/**
 * Stopping replies: the request is recorded in the database (messages.stopped_at) by the route, so whichever
 * process writes the reply learns of it; this is each process's side of it.
 */
export interface ReplyStops {
  /** A reply this process writes; `stop` cancels its model call. */
  watch(messageId: string, stop: () => void): WatchedReply;
  /**
   * Stops the reply if this process writes it, and waits until it is saved: whether it ended stopped, or null
   * when another process writes it.
   */
  stopHere(messageId: string): Promise<boolean | null>;
}

interface Entry {
  stop: () => void;
  stopped: boolean;
  done: Promise<boolean>;
  resolve: (stopped: boolean) => void;
}

export function createReplyStops(db: Kysely<Database>, log: FastifyBaseLogger): ReplyStops {
  const watched = new Map<string, Entry>();
  let timer: NodeJS.Timeout | undefined;
  let checking = false;

  const trigger = (entry: Entry) => {
    if (entry.stopped) return;
    entry.stopped = true;
    entry.stop();
  };
  const check = () => {
    if (checking || watched.size === 0) return;
    checking = true;
    listStopRequests(db, [...watched.keys()])
      .then((ids) => {
        for (const id of ids) {
          const entry = watched.get(id);
          if (entry) trigger(entry);
        }
      })
      .catch((err: unknown) => log.warn({ err: describeError(err) }, 'looking for stopped replies failed'))
      .finally(() => {
        checking = false;
      });
  };

  return {
    watch(messageId, stop) {
      let resolve!: (stopped: boolean) => void;
      const done = new Promise<boolean>((r) => (resolve = r));
      const entry: Entry = { stop, stopped: false, done, resolve };
      watched.set(messageId, entry);
      if (!timer) {
        timer = setInterval(check, STOP_CHECK_MS);
        timer.unref();
      }
      return {
        get stopped() {
          return entry.stopped;
        },
        finished(stopped) {
          watched.delete(messageId);
          entry.resolve(stopped);
          if (watched.size === 0 && timer) {
            clearInterval(timer);
            timer = undefined;
          }
        },
      };
    },
    async stopHere(messageId) {
      const entry = watched.get(messageId);
      if (!entry) return null;
      trigger(entry);
      const gaveUp = new AbortController();
      // Not saved within the wait (a slow database): the model call is cancelled all the same.
      const stopped = await Promise.race([entry.done, sleep(STOP_WAIT_MS, true, { signal: gaveUp.signal }).catch(() => true)]);
      gaveUp.abort();
      return stopped;
    },
  };
}

/**
 * POST /chat/messages/{id}/stop: the person's reply ends with the text so far. Written by this process: answers
 * once the reply is saved and the conversation free for the next question; by another: once that one is told.
 */
export async function stopReply(ctx: AppContext, user: UserRecord, messageId: string): Promise<ReplyStopResult> {
  const outcome = await requestReplyStop(ctx.db, user.id, messageId);
  if (outcome === 'missing') throw new NotFoundError(MESSAGE_NOT_FOUND);
  if (outcome === 'ended') return { message_id: messageId, stopped: false };
  // Written by another process: it sees the request within STOP_CHECK_MS.
  const stopped = (await ctx.replyStops.stopHere(messageId)) ?? true;
  return { message_id: messageId, stopped };
}
