import type { Kysely } from 'kysely';
import type { InboxPage } from '../../contract/feedback';
import { OTHER_ORGANISATION_FEEDBACK, type InboxKind } from '../../contract/feedback-constants';
import { ORGANISATION_NOT_FOUND } from '../../contract/users-constants';
import type { Database } from '../db/database';
import { findClientById } from '../db/repositories/clients';
import { listInbox } from '../db/repositories/feedback-inbox';
import type { UserRecord } from '../db/repositories/users';
import { ForbiddenError, NotFoundError } from './errors';
import { organisationOf } from './own-organisation';
import { pageWindow, totalPages } from './paging';

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
  let clientId: string | undefined;
  if (caller.role === 'superuser') {
    if (opts.clientId !== undefined && !(await findClientById(db, opts.clientId))) throw new NotFoundError(ORGANISATION_NOT_FOUND);
    clientId = opts.clientId;
  } else {
    clientId = organisationOf(caller);
    if (opts.clientId !== undefined && opts.clientId !== clientId) throw new ForbiddenError(OTHER_ORGANISATION_FEEDBACK);
  }
  const { rows, total } = await listInbox(db, { clientId, kind: opts.kind, ...pageWindow(opts.page, opts.pageSize) });
  return { items: rows, page: opts.page, page_size: opts.pageSize, total, total_pages: totalPages(total, opts.pageSize) };
}
