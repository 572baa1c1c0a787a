import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Spec: auto-scroll stops when the reader is more than 60 px from the bottom. */
export const AUTO_SCROLL_THRESHOLD_PX = 60;

export const distanceFromBottom = (el: { scrollHeight: number; scrollTop: number; clientHeight: number }) =>
  el.scrollHeight - el.scrollTop - el.clientHeight;

/**
 * Keeps a scroll container pinned to its bottom while its content grows, until the reader scrolls up more
 * than the threshold; scrolling back down (or jumpToLatest) pins it again.
 */
export function useStickToBottom(ref: RefObject<HTMLElement | null>) {
  const [atBottom, setAtBottom] = useState(true);
  const pinned = useRef(true);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let lastTop = el.scrollTop;
    let lastHeight = el.scrollHeight;
    const onScroll = () => {
      const near = distanceFromBottom(el) <= AUTO_SCROLL_THRESHOLD_PX;
      // Only the reader moving up lets go. A scroll that moves down without reaching the bottom is the
      // virtualizer correcting for rows measured taller, or a jump made before the content grew: follow on. A move
      // up while the content got shorter is the browser clamping the position (rows measured shorter than their
      // estimate): not the reader either. Read as the reader, it stopped the following mid-reply in a CI run.
      const movedUp = el.scrollTop < lastTop && el.scrollHeight >= lastHeight;
      lastTop = el.scrollTop;
      lastHeight = el.scrollHeight;
      if (near || !movedUp) {
        if (!near && pinned.current) el.scrollTop = el.scrollHeight;
        if (near) {
          pinned.current = true;
          setAtBottom(true);
        }
        return;
      }
      pinned.current = false;
      setAtBottom(false);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    // Content growth (a streamed token, a late image) changes the size, not the scroll position.
    const observer = new ResizeObserver(() => {
      if (pinned.current) el.scrollTop = el.scrollHeight;
    });
    for (const child of Array.from(el.children)) observer.observe(child);
    observer.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [ref]);

  /** Jump to latest, and after the person sends: follow the answer again. */
  const jumpToLatest = useCallback(() => {
    pinned.current = true;
    setAtBottom(true);
    const el = ref.current;
    // Not a smooth scroll: its intermediate scroll events would read as the reader scrolling away again.
    if (el) el.scrollTop = el.scrollHeight;
  }, [ref]);

  return { atBottom, jumpToLatest };
}
