/** How long after the page's load event deferred work starts. */
const SETTLE_DELAY_MS = 5000;

/**
 * Runs `task` a while after the page has loaded, once the main thread is idle: work the first screen does not need
 * (the chat stream's record schemas, src/api/chat-stream.ts) and the service worker. The worker's install
 * downloads and caches every asset of the app and its first install raises a notice, so it waits until the first
 * screen has settled, neither competing with it for the network and the main thread nor becoming its largest
 * paint. Its code is not even requested before then, which keeps it out of the login route's JS.
 */
export function afterLoadSettled(task: () => void): void {
  const later = () => setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(task, { timeout: 5000 }) : task()), SETTLE_DELAY_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
