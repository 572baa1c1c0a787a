import { useEffect } from 'react';
import type { Notice } from '../../machines/notice';
import { toast } from './toast';

/** The actor's part of it that says toasts: `on('notice.show', ...)` (every screen machine reports them so). */
interface Reporting {
  on(type: 'notice.show', listener: (notice: Notice) => void): { unsubscribe(): void };
}

/**
 * Shows an actor's `notice.show` events as toasts until unsubscribed. Outside React for the session actor, which
 * lives as long as the tab; views use {@link useNoticeToasts}.
 */
export function showNoticeToasts(actor: Reporting) {
  return actor.on('notice.show', (n) => toast[n.tone](n.text));
}

/** Shows the toasts a screen's machine reports (its `notice.show` events) while the screen is mounted. */
export function useNoticeToasts(actor: Reporting) {
  useEffect(() => {
    const sub = showNoticeToasts(actor);
    return () => sub.unsubscribe();
  }, [actor]);
}
