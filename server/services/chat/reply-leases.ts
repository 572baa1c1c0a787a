import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { errorMarker } from '../../../shared/markers';
import type { Database } from '../../db/database';
import { listAnsweringOwners, releaseAbandonedLease } from '../../db/repositories/conversations';
import { listAbandonedReplies, markInterruptedReplies } from '../../db/repositories/messages';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';

/**
 * A conversation's answering lease belongs to the process writing its reply, which renews it every
 * LEASE_RENEW_MS; a process that dies stops renewing, and the lease runs out after LEASE_MS. A restarted
 * process on the same host does not even wait for that: the owner's pid tells it the writer is gone.
 */
export const LEASE_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;
/** How often every instance looks for replies nobody writes any more (their lease ran out). */
export const REPLY_SWEEP_MS = 5_000;

export const REPLY_INTERRUPTED = 'This reply was interrupted because the server stopped while writing it. Ask again to get a full answer.';

/** This process: a restarted server gets a new instance id even when the operating system reuses its pid. */
const self = { host: hostname().replaceAll('/', '_'), pid: process.pid, instance: randomUUID() };

/** A new lease's owner string: "<host>/<pid>/<instance>/<lease>", unique per lease. */
export function newLeaseOwner(): string {
  return `${self.host}/${self.pid}/${self.instance}/${randomUUID()}`;
}

function parseOwner(owner: string): { host: string; pid: number; instance: string } | undefined {
  const [host, pid, instance] = owner.split('/');
  return host && instance && /^\d+$/.test(pid ?? '') ? { host, pid: Number(pid), instance } : undefined;
}

/**
 * True only when the owner's process has certainly exited: it ran on this host, and its pid is gone (or is
 * this very process, which did not write it). Owners on other hosts are judged by their lease's expiry.
 */
export function ownerIsGone(owner: string): boolean {
  const parsed = parseOwner(owner);
  if (!parsed || parsed.host !== self.host || parsed.instance === self.instance) return false;
  if (parsed.pid === self.pid) return true;
  try {
    process.kill(parsed.pid, 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user has that pid now; it may be alive, so wait for the lease to run out.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Ends every reply nobody is writing any more: partial text kept, an error marker saying it was interrupted,
 * status 'error', the conversation's lease released so the next send is accepted. Safe on every instance at
 * once: each lease is freed only if it is still as seen. Returns how many replies it ended.
 */
export async function finishAbandonedReplies(db: Kysely<Database>): Promise<number> {
  const deadOwners = (await listAnsweringOwners(db)).filter(ownerIsGone);
  const replies = await listAbandonedReplies(db, isoNow(), deadOwners);
  const byConversation = new Map<string, typeof replies>();
  for (const r of replies) byConversation.set(r.conversation_id, [...(byConversation.get(r.conversation_id) ?? []), r]);
  const marker = errorMarker('llm', REPLY_INTERRUPTED);
  let finished = 0;
  for (const [conversationId, rows] of byConversation) {
    const seen = { until: rows[0].answering_until, owner: rows[0].answering_owner };
    finished += await inTransaction(db, async (trx) => {
      if (!(await releaseAbandonedLease(trx, conversationId, seen))) return 0;
      await markInterruptedReplies(
        trx,
        conversationId,
        marker,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
  }
  return finished;
}
