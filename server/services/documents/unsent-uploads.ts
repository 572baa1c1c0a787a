import type { AppContext } from '../../context';
import { deleteUnsentDocuments } from '../../db/repositories/documents';
import { removeStoredFiles } from './documents-files';

/**
 * A file attached on the new-chat screen belongs to no conversation until the first message is sent. One never
 * sent (the tab was closed, the page reloaded: the screen does not bring such files back) is deleted after this
 * long, row and bytes, so it neither fills the disk nor stays stored against its owner's wishes.
 */
export const UNSENT_UPLOAD_LIFETIME_MS = 24 * 3_600_000;
/** Rows deleted per statement: a large backlog is cleared in short transactions that never hold the table long. */
const BATCH = 200;

/** Deletes every unsent upload older than UNSENT_UPLOAD_LIFETIME_MS (as of `now`); returns how many. */
export async function sweepUnsentUploads(ctx: Pick<AppContext, 'db' | 'files' | 'log'>, now = Date.now()): Promise<number> {
  const createdBefore = new Date(now - UNSENT_UPLOAD_LIFETIME_MS).toISOString();
  let swept = 0;
  for (;;) {
    const storageKeys = await deleteUnsentDocuments(ctx.db, createdBefore, BATCH);
    await removeStoredFiles(ctx, storageKeys);
    swept += storageKeys.length;
    if (storageKeys.length < BATCH) return swept;
  }
}
