import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsageLogsTable } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';

export type UsageLogRecord = Selectable<UsageLogsTable>;
export type NewUsageLog = Omit<Insertable<UsageLogsTable>, 'id' | 'created_at'>;

export async function insertUsageLog(db: Kysely<Database>, input: NewUsageLog): Promise<UsageLogRecord> {
  const row: UsageLogRecord = {
    id: randomUUID(),
    user_id: input.user_id,
    client_id: input.client_id ?? null,
    department_id: input.department_id ?? null,
    unit_id: input.unit_id ?? null,
    conversation_id: input.conversation_id ?? null,
    message_id: input.message_id ?? null,
    purpose: input.purpose,
    provider: input.provider,
    model: input.model,
    prompt_tokens: input.prompt_tokens,
    completion_tokens: input.completion_tokens,
    cost_usd: input.cost_usd,
    duration_ms: input.duration_ms,
    created_at: isoNow(),
  };
  await db.insertInto('usage_logs').values(row).execute();
  return row;
}

/**
 * The organisation's tokens (prompt and completion, every purpose) logged in [from, to): the fair-use count. Read
 * from the reports' covering index (client_id, created_at, ..., prompt_tokens, completion_tokens), so the sum never
 * touches the table's rows; compiled once, as it runs before every question.
 */
export async function organisationTokensBetween(db: Kysely<Database>, clientId: string, from: string, to: string): Promise<number> {
  const row = await tokensBetween.executeTakeFirst(db, clientId, from, to);
  return Number(row?.tokens ?? 0);
}

const tokensBetween = preparedQuery((db, slot: Slots<[clientId: string, from: string, to: string]>) =>
  db
    .selectFrom('usage_logs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))), eb.lit(0)).as('tokens'))
    .where('client_id', '=', slot(0))
    .where('created_at', '>=', slot(1))
    .where('created_at', '<', slot(2)),
);
