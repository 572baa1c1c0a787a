import type { Kysely } from 'kysely';
import type { InboxPage } from '../../../contract/feedback';
import { OTHER_ORGANISATION_FEEDBACK, type InboxKind } from '../../../contract/feedback-constants';
import type { Database } from '../../db/database';
import { listInbox } from '../../db/repositories/feedback-inbox';
import type { UserRecord } from '../../db/repositories/users';
import { listScope } from './own-organisation';
import { pageWindow, totalPages } from '../paging';

export interface InboxOptions {
  page: number;
  pageSize: number;
  kind?: InboxKind;
  /** Whose feedback; only the superuser may name an organisation other than their own. */
  clientId?: string;
}

/**
 * GET /feedbacks/inbox (the route allows admins and the superuser): an admin reads their own organisation's
 * feedback, reports and reply ratings, and naming another organisation is refused (403). The superuser, who
 * belongs to none, reads the named organisation's (404 when there is none), or everybody's.
 */
export async function readInbox(
  db: Kysely<Database>,
  caller: Pick<UserRecord, 'role' | 'client_id'>,
  opts: InboxOptions,
): Promise<InboxPage> {
  const clientId = await listScope(db, caller, opts.clientId, OTHER_ORGANISATION_FEEDBACK);
  const { rows, total } = await listInbox(db, { clientId, kind: opts.kind, ...pageWindow(opts.page, opts.pageSize) });
  return { items: rows, page: opts.page, page_size: opts.pageSize, total, total_pages: totalPages(total, opts.pageSize) };
}
