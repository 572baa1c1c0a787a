import { useEffect } from 'react';
import type { Notice } from '../../machines/notice';
import { toast } from './toast';

/** The actor's part of it that says toasts: `on('notice.show', ...)` (every screen machine reports them so). */
interface Reporting {
  on(type: 'notice.show', listener: (notice: Notice) => void): { unsubscribe(): void };
}

/** Shows the toasts a screen's machine reports (its `notice.show` events) while the screen is mounted. */
export function useNoticeToasts(actor: Reporting) {
  useEffect(() => {
    const sub = actor.on('notice.show', (n) => toast[n.tone](n.text));
    return () => sub.unsubscribe();
  }, [actor]);
}
