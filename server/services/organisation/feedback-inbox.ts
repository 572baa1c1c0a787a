import type { Kysely } from 'kysely';
import type { InboxPage } from '../../../contract/feedback';
import type { InboxKind } from '../../../contract/feedback-constants';
import type { Database } from '../../db/database';
import { listInbox } from '../../db/repositories/feedback-inbox';
import { organisationFilter, type Scope } from '../scope';
import { pageWindow, totalPages } from '../paging';

export interface InboxOptions {
  page: number;
  pageSize: number;
  kind?: InboxKind;
}

/**
 * GET /feedbacks/inbox (the route allows admins and the superuser): an admin reads their own organisation's
 * feedback, reports and reply ratings, and naming another organisation is refused (403). The superuser, who
 * belongs to none, reads the named organisation's (404 when there is none), or everybody's.
 */
export async function readInbox(
  db: Kysely<Database>,
  scope: Scope,
  opts: InboxOptions,
): Promise<InboxPage> {
  const { rows, total } = await listInbox(db, { clientId: organisationFilter(scope), kind: opts.kind, ...pageWindow(opts.page, opts.pageSize) });
  return { items: rows, page: opts.page, page_size: opts.pageSize, total, total_pages: totalPages(total, opts.pageSize) };
}
