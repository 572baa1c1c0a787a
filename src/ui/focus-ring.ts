/**
 * Focus ring for widgets whose focused element is visually hidden (switch, checkbox): the visible part
 * wears the ring when the react-aria group reports keyboard focus. Matches the global :focus-visible outline.
 */
export const groupFocusRing =
  'outline-offset-2 outline-blue-600 group-data-[focus-visible]:outline-2 group-data-[focus-visible]:outline-solid dark:outline-blue-400';
