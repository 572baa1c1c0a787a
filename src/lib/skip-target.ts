/**
 * Where the layout's 'Skip to content' link lands. A page may mark the one element a keyboard user came for with
 * this attribute (the chat marks its message box, so the link skips the conversation list as well as the
 * navigation); without one the link goes to <main>.
 */
export const SKIP_TARGET_ATTRIBUTE = 'data-skip-target';

/** Focuses the page's marked element; false when the page marks none (the link's own #main then applies). */
export function focusSkipTarget(): boolean {
  const target = document.querySelector<HTMLElement>(`[${SKIP_TARGET_ATTRIBUTE}]`);
  if (!target) return false;
  target.focus();
  return true;
}
