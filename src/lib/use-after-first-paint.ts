import { useEffect, useState } from 'react';

/**
 * False for the first paint of the component, true from just after it: what can wait a frame (secondary panels,
 * extra rows) is left out of the first paint, so the screen's main content is drawn sooner.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A frame callback runs just before the paint; a task queued from it runs just after.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
