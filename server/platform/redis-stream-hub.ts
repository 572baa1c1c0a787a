import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { createMemoryStreamHub, RETENTION_MS, type ReplyEvent, type ReplySubscriber, type StreamHub } from './stream-hub';

/**
 * The stream hub across instances (REDIS_URL): a reply's events go to the clients of the instance writing it from
 * memory, as with one instance, and through Redis to followers on any other instance. Each reply has a list of its
 * records (what a late follower is replayed) and a pub/sub channel (what it then follows live); records carry a
 * sequence number, so a follower that subscribed while reading the list drops what it has already seen.
 *
 * Writes are batched: what a reply publishes within FLUSH_MS goes to Redis as one record (its deltas joined), one
 * pipeline for every reply: a thousand replies at 20 tokens a second would otherwise be 40,000 Redis commands a
 * second from one instance.
 */
interface WireRecord {
  /** Sequence number within the reply, from 1. */
  s: number;
  /** The events, in order; an empty list only in the opening record. */
  e: ReplyEvent[];
  /** The last record: the reply has ended. */
  end?: true;
}

export interface RedisStreamHub extends StreamHub {
  /** Sends what is pending and stops following (the app's close). The connections are the caller's. */
  shutdown(): Promise<void>;
}

const FLUSH_MS = 25;
/** A follower finding no records looks again this often, this many times, before it ends. */
const OPEN_WAITS = 3;
const OPEN_WAIT_MS = 100;
/** A reply whose writer died never ends its list: it goes after this long anyway (replies take minutes at most). */
const OPEN_TTL_SECONDS = 3_600;
const ENDED_TTL_SECONDS = Math.ceil(RETENTION_MS / 1000);

/** Consecutive deltas as one: the same text, fewer objects to send and replay. */
function joinDeltas(events: ReplyEvent[]): ReplyEvent[] {
  const out: ReplyEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.type === 'delta' && last?.type === 'delta') out[out.length - 1] = { type: 'delta', text: last.text + event.text };
    else out.push(event);
  }
  return out;
}

export function createRedisStreamHub(options: {
  /** For writes and reads (list pushes, ranges, publishes). */
  redis: Redis;
  /** A connection of its own in subscriber mode. */
  subscriber: Redis;
  log: FastifyBaseLogger;
  /** Key and channel prefix (REDIS_PREFIX), so deployments can share one Redis. */
  prefix: string;
}): RedisStreamHub {
  const { redis, subscriber, log, prefix } = options;
  const local = createMemoryStreamHub();
  const listKey = (id: string) => `${prefix}reply:${id}:records`;
  const channelOf = (id: string) => `${prefix}reply:${id}`;

  // Writing side: records waiting for the next flush, and each open reply's last sequence number.
  const pending = new Map<string, { events: ReplyEvent[]; end: boolean }>();
  const sequence = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    timer = undefined;
    if (pending.size === 0) return;
    const batch = [...pending];
    pending.clear();
    const pipeline = redis.pipeline();
    for (const [id, { events, end }] of batch) {
      const s = (sequence.get(id) ?? 0) + 1;
      if (end) sequence.delete(id);
      else sequence.set(id, s);
      const record: WireRecord = { s, e: joinDeltas(events), ...(end ? { end: true as const } : {}) };
      const text = JSON.stringify(record);
      pipeline.rpush(listKey(id), text);
      pipeline.expire(listKey(id), end ? ENDED_TTL_SECONDS : OPEN_TTL_SECONDS);
      pipeline.publish(channelOf(id), text);
    }
    try {
      await pipeline.exec();
    } catch (err) {
      // Followers elsewhere miss these tokens (they read the saved reply when it ends); the writer's own clients
      // and the reply itself are not affected.
      log.warn({ err: { message: (err as Error).message } }, 'redis stream hub: records not sent');
    }
  };
  /** An event, the end (null), or nothing (undefined: the opening record, with no events). */
  const queue = (id: string, event: ReplyEvent | null | undefined) => {
    const entry = pending.get(id) ?? { events: [], end: false };
    if (event) entry.events.push(event);
    else if (event === null) entry.end = true;
    pending.set(id, entry);
    timer ??= setTimeout(() => void flush(), FLUSH_MS);
  };

  // Following side: who listens to which channel on this instance.
  const listeners = new Map<string, Set<(record: WireRecord) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    const set = listeners.get(channel);
    if (!set) return;
    let record: WireRecord;
    try {
      record = JSON.parse(message) as WireRecord;
    } catch {
      return;
    }
    for (const listener of set) listener(record);
  });
  const listen = async (channel: string, listener: (record: WireRecord) => void) => {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      set.add(listener);
      await subscriber.subscribe(channel);
    } else set.add(listener);
  };
  const unlisten = (channel: string, listener: (record: WireRecord) => void) => {
    const set = listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return;
    listeners.delete(channel);
    subscriber.unsubscribe(channel).catch(() => undefined);
  };

  const readRecords = async (id: string) => (await redis.lrange(listKey(id), 0, -1)).map((text) => JSON.parse(text) as WireRecord);

  function followRemote(id: string, follower: ReplySubscriber): () => void {
    const channel = channelOf(id);
    let seen = 0;
    let replayed = false;
    let ended = false;
    const early: WireRecord[] = [];
    const deliver = (record: WireRecord) => {
      if (ended || record.s <= seen) return;
      seen = record.s;
      for (const event of record.e) follower.onEvent(event);
      if (record.end) finish();
    };
    const finish = () => {
      if (ended) return;
      ended = true;
      unlisten(channel, onRecord);
      follower.onEnd();
    };
    const onRecord = (record: WireRecord) => (replayed ? deliver(record) : early.push(record));
    void (async () => {
      try {
        // Subscribed first, then the list read: a record published in between is in one or the other (or both).
        await listen(channel, onRecord);
        let stored = await readRecords(id);
        // The opening record is sent as the reply starts, which the follower's request may just have beaten.
        for (let attempt = 0; stored.length === 0 && attempt < OPEN_WAITS && !ended; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, OPEN_WAIT_MS));
          stored = await readRecords(id);
        }
        // Unknown here and in Redis: not being written anywhere (or long gone).
        if (stored.length === 0) return finish();
        const deltas = joinDeltas(stored.flatMap((r) => r.e));
        const last = stored.at(-1)!;
        seen = last.s;
        for (const event of deltas) if (!ended) follower.onEvent(event);
        if (last.end) return finish();
        replayed = true;
        for (const record of early) deliver(record);
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'redis stream hub: a reply could not be followed');
        finish();
      }
    })();
    return () => {
      ended = true;
      unlisten(channel, onRecord);
    };
  }

  return {
    open(streamId) {
      local.open(streamId);
      // An opening record, so a follower elsewhere knows the reply exists before its first token.
      sequence.set(streamId, 0);
      queue(streamId, undefined);
      // At once, not with the next batch: a follower elsewhere (a second tab opened right after the send) must find it.
      clearTimeout(timer);
      void flush();
    },
    publish(streamId, event) {
      local.publish(streamId, event);
      if (sequence.has(streamId)) queue(streamId, event);
    },
    close(streamId) {
      local.close(streamId);
      if (sequence.has(streamId)) queue(streamId, null);
    },
    subscribe(streamId, follower) {
      return local.has(streamId) ? local.subscribe(streamId, follower) : followRemote(streamId, follower);
    },
    async shutdown() {
      clearTimeout(timer);
      await flush();
      for (const channel of listeners.keys()) await subscriber.unsubscribe(channel).catch(() => undefined);
      listeners.clear();
    },
  };
}
