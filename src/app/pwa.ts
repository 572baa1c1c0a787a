import { toast } from '../ui/toast';

export const OFFLINE_READY = 'Tanya is installed and ready to work offline.';

/**
 * Registers the root-scoped service worker (production builds only). With autoUpdate, an update or a worker
 * activated from another tab reloads the page; the first install raises the offline-ready notice. main.tsx loads
 * this module only once the first screen has settled (see src/lib/after-load.ts).
 */
export async function registerServiceWorker() {
  const { registerSW } = await import('virtual:pwa-register');
  registerSW({
    immediate: true,
    onOfflineReady: () => toast.info(OFFLINE_READY),
  });
}
