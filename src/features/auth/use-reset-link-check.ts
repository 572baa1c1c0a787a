import { useActor } from '@xstate/react';
import { fromPromise } from 'xstate';
import { ApiError } from '../../api/api-error';
import { checkResetLink } from '../../api/link-check';

/**
 * The reset screen asks once, when it opens, whether its link still works, so an unknown, used or expired link says
 * so before a password is typed. Only the server's refusal (400) counts as "not valid": without an answer the form
 * is shown and the reset itself tells.
 */
const resetLinkCheck = fromPromise<{ refusal: string | null }, string>(async ({ input }) => {
  try {
    await checkResetLink(input);
  } catch (error) {
    // Resolved, not rejected: a rejected actor nobody handles is rethrown into the page's error boundary.
    if (error instanceof ApiError && error.status === 400) return { refusal: error.detail };
  }
  return { refusal: null };
});

export function useResetLinkCheck(token: string) {
  const [snapshot] = useActor(resetLinkCheck, { input: token });
  return {
    checking: snapshot.status === 'active',
    /** The server's sentence for a link that cannot set a password. */
    refusal: snapshot.status === 'done' ? snapshot.output.refusal : null,
  };
}
