import { sql, type Kysely } from 'kysely';
import type { InboxItem } from '../../../contract/feedback';
import { INBOX_EXCERPT_LENGTH, type InboxKind } from '../../../contract/feedback-constants';
import type { Database } from '../database';

export interface InboxFilter {
  /** One organisation's, or every organisation's when undefined (the superuser). */
  clientId?: string;
  kind?: InboxKind;
  limit: number;
  offset: number;
}

/**
 * Feedback submissions, issue reports and reply ratings in one list, newest first. Each part reads at most the
 * rows up to the end of the page from its (client_id, time) index before the two are merged, so a page costs
 * the same however much an organisation has sent.
 */
export async function listInbox(db: Kysely<Database>, filter: InboxFilter): Promise<{ rows: InboxItem[]; total: number }> {
  const reach = filter.offset + filter.limit;
  const wantsSubmissions = filter.kind !== 'rating';
  const wantsRatings = filter.kind === undefined || filter.kind === 'rating';

  let submissions = db
    .selectFrom('feedback_submissions as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('clients as c', 'c.id', 'f.client_id');
  if (filter.clientId !== undefined) submissions = submissions.where('f.client_id', '=', filter.clientId);
  if (filter.kind === 'feedback' || filter.kind === 'report') submissions = submissions.where('f.type', '=', filter.kind);

  let ratings = db
    .selectFrom('reply_ratings as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .leftJoin('clients as c', 'c.id', 'r.client_id');
  if (filter.clientId !== undefined) ratings = ratings.where('r.client_id', '=', filter.clientId);

  const submissionPart = submissions
    .select([
      'f.id',
      sql<InboxKind>`f.type`.as('kind'),
      'f.created_at',
      'u.name as user_name',
      'u.email as user_email',
      'c.client_name',
      sql<InboxItem['level']>`f.level`.as('level'),
      sql<InboxItem['rating']>`cast(null as text)`.as('rating'),
      'f.description as text',
      sql<string | null>`cast(null as text)`.as('reply_excerpt'),
    ])
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(reach);
  const ratingPart = ratings
    .select([
      'r.id',
      sql<InboxKind>`'rating'`.as('kind'),
      'r.rated_at as created_at',
      'u.name as user_name',
      'u.email as user_email',
      'c.client_name',
      sql<InboxItem['level']>`cast(null as text)`.as('level'),
      sql<InboxItem['rating']>`r.rating`.as('rating'),
      'r.comment as text',
      // Markdown, cut to plain text by the service: enough that markers and syntax at the start leave a whole excerpt.
      sql<string | null>`substr(m.content, 1, ${sql.lit(INBOX_EXCERPT_LENGTH * 8)})`.as('reply_excerpt'),
    ])
    .orderBy('r.rated_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(reach);

  // Each part in a subquery of its own: SQLite allows no ORDER BY or LIMIT on a member of a compound select.
  const submissionRows = db.selectFrom(submissionPart.as('s')).selectAll();
  const ratingRows = db.selectFrom(ratingPart.as('r')).selectAll();
  const merged = !wantsRatings ? submissionRows : !wantsSubmissions ? ratingRows : submissionRows.unionAll(ratingRows);
  const rows = await db
    .selectFrom(merged.as('i'))
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();

  let total = 0;
  if (wantsSubmissions) total += Number((await submissions.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (wantsRatings) total += Number((await ratings.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { rows, total };
}
