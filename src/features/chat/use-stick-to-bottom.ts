import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Spec: auto-scroll stops when the reader is more than 60 px from the bottom. */
export const AUTO_SCROLL_THRESHOLD_PX = 60;

/** How long a wheel, touch or key move up waits for its scroll before growth pins the view again. */
const READER_MOVE_GRACE_MS = 300;

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
    // The reader's own move up holds the pinning for a moment, until its scroll is seen. A wheel or touch scroll
    // runs on the compositor and its scroll event reaches this thread a frame or more later; a streamed token in
    // between pinned the view to the bottom again and undid the move (seen in CI: Jump to latest never came). If no
    // scroll follows (an inner element took the wheel), the next growth after the moment pins again.
    let readerMovedAt = Number.NEGATIVE_INFINITY;
    const readerMovesUp = () => {
      readerMovedAt = performance.now();
    };
    const follows = () => pinned.current && performance.now() - readerMovedAt > READER_MOVE_GRACE_MS;
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
        if (!near && follows()) el.scrollTop = el.scrollHeight;
        if (near) {
          pinned.current = true;
          setAtBottom(true);
        }
        return;
      }
      pinned.current = false;
      setAtBottom(false);
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) readerMovesUp();
    };
    let touchY: number | null = null;
    const onTouchStart = (e: TouchEvent) => {
      touchY = e.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (e: TouchEvent) => {
      const y = e.touches[0]?.clientY;
      // A finger moving down the screen scrolls the content up.
      if (touchY !== null && y !== undefined && y > touchY) readerMovesUp();
      touchY = y ?? touchY;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'PageUp' || e.key === 'ArrowUp' || e.key === 'Home' || (e.key === ' ' && e.shiftKey)) readerMovesUp();
    };
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('touchstart', onTouchStart, { passive: true });
    el.addEventListener('touchmove', onTouchMove, { passive: true });
    el.addEventListener('keydown', onKeyDown);
    el.addEventListener('scroll', onScroll, { passive: true });
    // Content growth (a streamed token, a late image) changes the size, not the scroll position.
    const observer = new ResizeObserver(() => {
      if (follows()) el.scrollTop = el.scrollHeight;
    });
    for (const child of Array.from(el.children)) observer.observe(child);
    observer.observe(el);
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('touchstart', onTouchStart);
      el.removeEventListener('touchmove', onTouchMove);
      el.removeEventListener('keydown', onKeyDown);
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
