import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import type { ClientRecord } from './clients';

/** `https://Acme.example.com/app/` → `https://acme.example.com`; undefined for anything that is not http(s). */
export function urlOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client organisations whose stored origin URL has this origin (single sign-on and directory sign-in find the
 * organisation by the address its people use). Origins are stored as typed (a path, a trailing slash, capitals),
 * so the index-friendly prefix narrows and the parsed origin decides.
 */
export async function findClientsByOrigin(db: Kysely<Database>, origin: string): Promise<ClientRecord[]> {
  const wanted = urlOrigin(origin);
  if (!wanted) return [];
  const escaped = wanted.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .selectFrom('clients')
    .selectAll()
    .where(sql<boolean>`lower(origin) like ${`${escaped}%`} escape '\\'`)
    .execute();
  return rows.filter((row) => row.origin !== null && urlOrigin(row.origin) === wanted);
}
