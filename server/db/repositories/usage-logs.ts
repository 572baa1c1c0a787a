import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsageLogsTable } from '../database';
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
