import { toast } from '../ui/toast';

export const OFFLINE_READY = 'Tanya is installed and ready to work offline.';

/** How long after the page's load event the worker is registered. */
const REGISTER_DELAY_MS = 5000;

/** Runs `task` a while after the page has loaded, once the main thread is idle. */
function afterLoadSettled(task: () => void) {
  const later = () => setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(task, { timeout: 5000 }) : task()), REGISTER_DELAY_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

/**
 * Registers the root-scoped service worker (production builds only). With autoUpdate, an update or a worker
 * activated from another tab reloads the page; the first install raises the offline-ready notice.
 * The worker's install downloads and caches every asset of the app, and its first install raises a notice: both
 * wait until the first screen has loaded and settled (REGISTER_DELAY_MS), so they neither compete with it for the
 * network and the main thread nor become the page's largest paint.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  afterLoadSettled(() => {
    void import('virtual:pwa-register').then(({ registerSW }) =>
      registerSW({
        immediate: true,
        onOfflineReady: () => toast.info(OFFLINE_READY),
      }),
    );
  });
}
