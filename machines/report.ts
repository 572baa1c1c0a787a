import { enqueueActions, type ActionFunction, type EventObject } from 'xstate';

/**
 * A child machine's outward events: emitted (model tests and any outside listener read them), and sent to the
 * parent when the machine runs as a child of a screen machine, which routes them to its other children.
 * `sendParent` alone throws when there is no parent (a machine run by itself, and the pure `transition()` that
 * model tests and path generation use), so it is only sent when a parent exists.
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
    if (args.self._parent) args.enqueue.sendParent(event);
  });
}
