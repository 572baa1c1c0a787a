import { enqueueActions, type ActionFunction, type AnyActorRef, type EventObject } from 'xstate';

/**
 * Whom a child machine reports to. XState offers no public way for an actor to reach the one that started it
 * (`sendParent` throws when there is none, and `self._parent` is private), so a parent that invokes or spawns a
 * reporting child passes itself in the child's input (`input: ({ self }) => ({ ..., parent: self })`) and the
 * child keeps it in its context. A machine run by itself (a view's own actor, or the pure `transition()` that
 * model tests and path generation use) has none.
 */
export interface ReportsTo {
  parent?: AnyActorRef;
}

/**
 * A machine's outward events: emitted (views, model tests and any outside listener read them), and sent to the
 * parent in `context.parent` when there is one, which routes them to its other children.
 */
// The action is placed in machines with different context/event types; xstate's generics cannot express "any".
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function report<TArgs = any, TParams = any>(
  make: (args: TArgs, params: TParams) => EventObject,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): ActionFunction<any, any, any, any, any, any, any, any, any> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return enqueueActions((args: any, params: any) => {
    const event = make(args as TArgs, params as TParams);
    args.enqueue.emit(event);
    const { parent } = args.context as ReportsTo;
    // `sendTo` an absent target would send to the machine itself, so a machine without a parent only emits.
    if (parent) args.enqueue.sendTo(parent, event);
  });
}
