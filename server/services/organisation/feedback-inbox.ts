import type { Kysely } from 'kysely';
import type { InboxPage } from '../../../contract/feedback';
import { INBOX_EXCERPT_LENGTH, type InboxKind } from '../../../contract/feedback-constants';
import { oneLineText, textStart } from '../../../shared/one-line-text';
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
  // A rating quotes the start of its reply as text: raw markdown showed its syntax and markers (`## `, `::image{…}`).
  const items = rows.map((row) => ({ ...row, reply_excerpt: row.reply_excerpt === null ? null : textStart(oneLineText(row.reply_excerpt), INBOX_EXCERPT_LENGTH) }));
  return { items, page: opts.page, page_size: opts.pageSize, total, total_pages: totalPages(total, opts.pageSize) };
}
