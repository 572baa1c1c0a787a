import { useEffect, useState } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/**
 * Like @xstate/react's useSelector, but commits at most once per animation frame: a reply streams dozens of
 * chunks a second and only what is painted needs rendering.
 */
export function useFrameSelector<A extends AnyActorRef, T>(actor: A, select: (snapshot: SnapshotFrom<A>) => T): T {
  const [value, setValue] = useState(() => select(actor.getSnapshot() as SnapshotFrom<A>));
  useEffect(() => {
    let frame = 0;
    const flush = () => {
      frame = 0;
      setValue(select(actor.getSnapshot() as SnapshotFrom<A>));
    };
    flush();
    const sub = actor.subscribe(() => {
      if (!frame) frame = requestAnimationFrame(flush);
    });
    return () => {
      sub.unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    };
    // `select` is expected to be stable in meaning; re-subscribing on every render would drop frames.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor]);
  return value;
}
