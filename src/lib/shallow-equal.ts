/**
 * Equal when both are the same value, or objects (arrays too) with the same keys holding the same values: the
 * comparison for narrow `useSelector` calls that build an object, so a view re-renders only on a real change.
 */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  const keys = Object.keys(a) as Array<keyof T>;
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}
