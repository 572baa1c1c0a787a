import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, FeedbackSubmissionsTable } from '../database';
import { isoNow } from '../timestamps';

export type NewFeedback = Omit<FeedbackSubmissionsTable, 'id' | 'created_at'>;

export async function insertFeedback(db: Kysely<Database>, input: NewFeedback): Promise<string> {
  const id = randomUUID();
  await db.insertInto('feedback_submissions').values({ id, ...input, created_at: isoNow() }).execute();
  return id;
}
