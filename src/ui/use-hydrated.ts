import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while rendering at build time (prerendered pages) and while hydrating that markup, true afterwards and in
 * every page rendered in the browser only. Screens use it to keep controls inert until their handlers exist:
 * text typed into the bare HTML would be overwritten by the first render, and a form submitted natively would
 * put its fields into the URL.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
