import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { isoNow } from '../timestamps';

/**
 * Ends every sign-in of every person of the organisation (it was deactivated): their refresh tokens are revoked and
 * their session versions raised, so the access tokens they hold are refused from their next request on, and
 * re-activating the organisation later brings none of those sessions back. `db` should be the caller's transaction.
 */
export async function endOrganisationSessions(db: Kysely<Database>, clientId: string): Promise<void> {
  const people = db.selectFrom('users').select('users.id').where('users.client_id', '=', clientId);
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: isoNow() })
    .where('revoked_at', 'is', null)
    .where('user_id', 'in', people)
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1) }))
    .where('client_id', '=', clientId)
    .execute();
}
