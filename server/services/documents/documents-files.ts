import type { AppContext } from '../../context';

/**
 * Removes stored files whose rows are gone already (a deleted document, a deleted conversation's files). A file
 * that cannot be removed is logged (an orphan on disk) and is not the caller's error: what the person asked for,
 * the deletion of the rows, has happened.
 */
export async function removeStoredFiles(ctx: Pick<AppContext, 'files' | 'log'>, storageKeys: readonly string[]): Promise<void> {
  for (const storageKey of storageKeys) {
    try {
      await ctx.files.remove(storageKey);
    } catch (err) {
      ctx.log.warn({ err, storageKey }, 'stored file could not be removed');
    }
  }
}
