import { useEffect, useState } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';

/**
 * Like @xstate/react's useSelector, but commits at most once per animation frame: a reply streams dozens of
 * chunks a second and only what is painted needs rendering. With no actor it reads nothing (undefined), so a list
 * can give the actor to the one row that shows it without changing the component the other rows are.
 */
export function useFrameSelector<A extends AnyActorRef, T>(actor: A | null, select: (snapshot: SnapshotFrom<A>) => T): T | undefined {
  const read = (from: A) => select(from.getSnapshot() as SnapshotFrom<A>);
  const [state, setState] = useState(() => ({ actor, value: actor ? read(actor) : undefined }));
  useEffect(() => {
    if (!actor) return;
    let frame = 0;
    const flush = () => {
      frame = 0;
      const value = read(actor);
      setState((prev) => (prev.actor === actor && Object.is(prev.value, value) ? prev : { actor, value }));
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
  if (!actor) return undefined;
  // Until the effect has read it, an actor just given is read here: never the value of an actor given before.
  return state.actor === actor ? state.value : read(actor);
}
