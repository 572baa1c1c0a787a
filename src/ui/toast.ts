import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components/Toast';

/** The spec's default toast duration. */
export const TOAST_DURATION_MS = 3000;

export type ToastType = 'success' | 'error' | 'info' | 'warning';

export interface ToastOptions {
  /** Milliseconds before it closes by itself; 0 keeps it until closed. Default TOAST_DURATION_MS. */
  duration?: number;
  /** A bold first line above the message. */
  title?: string;
}

export interface ToastValue {
  type: ToastType;
  message: string;
  title?: string;
}

/** One queue for the whole app, usable from plain modules (API client, PWA registration). */
export const toastQueue = new ToastQueue<ToastValue>({ maxVisibleToasts: 5 });


const raise =
  (type: ToastType) =>
  (message: string, options: ToastOptions = {}): string => {
    const duration = options.duration ?? TOAST_DURATION_MS;
    return toastQueue.add({ type, message, title: options.title }, { timeout: duration > 0 ? duration : undefined });
  };

export const toast = {
  success: raise('success'),
  error: raise('error'),
  info: raise('info'),
  warning: raise('warning'),
  /** Closes one toast by the key its call returned. */
  dismiss: (key: string) => toastQueue.close(key),
  /** Closes every toast (e.g. on logout). */
  clear: () => toastQueue.clear(),
};

/**
 * Whether a toast has ever been raised: the region (react-aria's toast code) loads with the first toast, not
 * with the login route.
 */
export function subscribeFirstToast(onFirst: () => void): () => void {
  if (toastQueue.visibleToasts.length > 0) {
    onFirst();
    return () => {};
  }
  const unsubscribe = toastQueue.subscribe(() => {
    unsubscribe();
    onFirst();
  });
  return unsubscribe;
}
