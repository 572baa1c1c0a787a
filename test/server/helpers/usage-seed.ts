import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Database, UsageLogsTable } from '../../../server/db/database';

/** A usage row the way server/services/chat/usage.ts writes one, with the fields a test cares about. */
export interface SeedUsage {
  user: { id: string; client_id: string | null };
  /** The department and unit recorded on the row (the person's assignment at the time). */
  department_id?: string | null;
  unit_id?: string | null;
  purpose?: 'reply' | 'title';
  prompt_tokens?: number;
  completion_tokens?: number;
  created_at: string;
  /** How many identical rows. */
  times?: number;
}

/** Inserts the rows in batches, as the app would have written them one by one. */
export async function seedUsage(db: Kysely<Database>, rows: SeedUsage[]): Promise<void> {
  const values: Insertable<UsageLogsTable>[] = rows.flatMap((r) =>
    Array.from({ length: r.times ?? 1 }, () => ({
      id: randomUUID(),
      user_id: r.user.id,
      client_id: r.user.client_id,
      department_id: r.department_id ?? null,
      unit_id: r.unit_id ?? null,
      conversation_id: null,
      message_id: null,
      purpose: r.purpose ?? 'reply',
      provider: 'offline',
      model: 'demo',
      prompt_tokens: r.prompt_tokens ?? 0,
      completion_tokens: r.completion_tokens ?? 0,
      cost_usd: 0,
      duration_ms: 1,
      created_at: r.created_at,
    })),
  );
  for (let i = 0; i < values.length; i += 200) await db.insertInto('usage_logs').values(values.slice(i, i + 200)).execute();
}

/** ISO timestamp of a day of a UTC month (month 1..12; may run past 12 or below 1, Date.UTC carries it). */
export function isoDay(year: number, month: number, day = 10, time = '12:00:00.000'): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  return `${date.toISOString().slice(0, 10)}T${time}Z`;
}
