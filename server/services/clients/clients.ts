import type { Kysely } from 'kysely';
import type { Client, ClientList, RegisterClientRequest, UpdateClientRequest } from '../../../contract/clients';
import { CLIENT_NOT_FOUND, type ClientStatus } from '../../../contract/clients-constants';
import type { Database } from '../../db/database';
import {
  findClientById,
  insertClient,
  listClients,
  updateClient as updateClientRow,
  type ClientRecord,
} from '../../db/repositories/clients';
import { findPackageById } from '../../db/repositories/packages';
import { endOrganisationSessions } from '../../db/repositories/organisation-sessions';
import { findActiveSubscription, findActiveSubscriptions } from '../../db/repositories/subscriptions';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { NotFoundError } from '../errors';
import { pageWindow, totalPages } from '../paging';
import type { Scope } from '../scope';
import { requireAuthTypeInPackage, requireEditedAuthType } from './auth-types';
import { requireEveryOrganisation } from './client-scope';
import { toClientView } from './client-view';
import { addSubscription } from './subscriptions';

export interface ClientListOptions {
  page: number;
  pageSize: number;
  search?: string;
  status?: ClientStatus;
  clientType?: string;
}

/** GET /clients/: a page of clients by name, each with its subscription in force. */
export async function listClientsFor(db: Kysely<Database>, scope: Scope, opts: ClientListOptions): Promise<ClientList> {
  requireEveryOrganisation(scope);
  const { rows, total } = await listClients(db, {
    search: opts.search || undefined,
    status: opts.status,
    clientType: opts.clientType,
    ...pageWindow(opts.page, opts.pageSize),
  });
  const at = isoNow();
  const current = await findActiveSubscriptions(db, rows.map((row) => row.id), at);
  return {
    clients: rows.map((row) => toClientView(row, current.get(row.id), at)),
    page: opts.page,
    page_size: opts.pageSize,
    total,
    total_pages: totalPages(total, opts.pageSize),
  };
}

async function viewOf(db: Kysely<Database>, row: ClientRecord): Promise<Client> {
  const at = isoNow();
  return toClientView(row, await findActiveSubscription(db, row.id, at), at);
}

async function clientOrNotFound(db: Kysely<Database>, id: string): Promise<ClientRecord> {
  const row = await findClientById(db, id);
  if (!row) throw new NotFoundError(CLIENT_NOT_FOUND);
  return row;
}

/** GET /clients/{id}: the client with its subscription in force. */
export async function getClient(db: Kysely<Database>, scope: Scope, id: string): Promise<Client> {
  requireEveryOrganisation(scope);
  return viewOf(db, await clientOrNotFound(db, id));
}

/**
 * POST /clients/register: the client and its first subscription in one transaction (either both are stored or
 * neither). The auth type must be one the subscription's package allows.
 */
export async function registerClient(db: Kysely<Database>, scope: Scope, input: RegisterClientRequest): Promise<Client> {
  requireEveryOrganisation(scope);
  const { client_data: data, subscription_data: subscription } = input;
  return inTransaction(db, async (trx) => {
    const pkg = await findPackageById(trx, subscription.package_id);
    // An unknown package is reported by addSubscription, on its field.
    if (pkg) requireAuthTypeInPackage(data.auth_type, pkg.type);
    const row = await insertClient(trx, {
      client_name: data.client_name,
      email: data.contact_info.email,
      phone: data.contact_info.phone,
      origin: data.origin,
      status: data.status,
      auth_type: data.auth_type,
      client_type: data.client_type,
    });
    await addSubscription(trx, row.id, subscription);
    return viewOf(trx, row);
  });
}

/**
 * Deactivation ends the sessions of the organisation's people at once (and for good: re-activating brings none
 * back). Even without this their tokens would be refused while the client is inactive (identity/access.ts).
 */
async function applyStatus(db: Kysely<Database>, before: ClientRecord, status: ClientRecord['status']): Promise<void> {
  if (status === 'inactive' && before.status !== 'inactive') await endOrganisationSessions(db, before.id);
}

/** PUT /clients/{id}: every field of Edit Client; the auth type follows the rules of requireEditedAuthType. */
export async function updateClient(db: Kysely<Database>, scope: Scope, id: string, input: UpdateClientRequest): Promise<Client> {
  requireEveryOrganisation(scope);
  return inTransaction(db, async (trx) => {
    const before = await clientOrNotFound(trx, id);
    const active = await findActiveSubscription(trx, id, isoNow());
    requireEditedAuthType(before.auth_type, input.auth_type, active?.package_type ?? null);
    await applyStatus(trx, before, input.status);
    const row = await updateClientRow(trx, id, {
      client_name: input.client_name,
      email: input.contact_info.email,
      phone: input.contact_info.phone,
      origin: input.origin,
      status: input.status,
      auth_type: input.auth_type,
      client_type: input.client_type,
    });
    return viewOf(trx, row ?? before);
  });
}

/** PATCH /clients/{id}/status: active or inactive (clients are never deleted: their history stays). */
export async function setClientStatus(db: Kysely<Database>, scope: Scope, id: string, status: 'active' | 'inactive'): Promise<Client> {
  requireEveryOrganisation(scope);
  return inTransaction(db, async (trx) => {
    const before = await clientOrNotFound(trx, id);
    await applyStatus(trx, before, status);
    const row = await updateClientRow(trx, id, { status });
    return viewOf(trx, row ?? before);
  });
}
