import { toast } from '../ui/toast';

export const OFFLINE_READY = 'Tanya is installed and ready to work offline.';

/**
 * Registers the root-scoped service worker (production builds only). With autoUpdate, an update or a worker
 * activated from another tab reloads the page; the first install raises the offline-ready notice.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('virtual:pwa-register').then(({ registerSW }) =>
    registerSW({
      immediate: true,
      onOfflineReady: () => toast.info(OFFLINE_READY),
    }),
  );
}
