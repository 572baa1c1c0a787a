import { useEffect, useState, type CSSProperties } from 'react';
import { CircleAlert, CircleCheck, Info, TriangleAlert, X, type LucideIcon } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Text } from 'react-aria-components/Text';
import {
  UNSTABLE_Toast as AriaToast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as AriaToastRegion,
} from 'react-aria-components/Toast';
import { cx } from './cx';
import { toastQueue as queue, type ToastType } from './toast';

const looks: Record<ToastType, { icon: LucideIcon; iconClass: string; bar: string }> = {
  success: { icon: CircleCheck, iconClass: 'text-green-600 dark:text-green-400', bar: 'bg-green-600 dark:bg-green-400' },
  error: { icon: CircleAlert, iconClass: 'text-red-600 dark:text-red-400', bar: 'bg-red-600 dark:bg-red-400' },
  info: { icon: Info, iconClass: 'text-blue-600 dark:text-blue-400', bar: 'bg-blue-600 dark:bg-blue-400' },
  warning: { icon: TriangleAlert, iconClass: 'text-amber-600 dark:text-amber-400', bar: 'bg-amber-500 dark:bg-amber-400' },
};

/**
 * The message box a toast must never cover (its Send and Stop buttons are what a person reaches for next). A view
 * may mark another such bar with `data-toast-above`.
 */
const COMPOSER = '[data-toast-above], form:has([aria-label="Send message"]), form:has([aria-label="Stop reply"])';

/**
 * How far above the viewport's bottom edge the stack must start to clear the composer (0 on screens without one).
 * Measured while toasts show: when one is raised, when the window or the composer (a growing message box) resizes.
 */
function useComposerClearance(): number {
  const [clearance, setClearance] = useState(0);
  useEffect(() => {
    let watched: Element | null = null;
    const resize = new ResizeObserver(() => measure());
    function measure() {
      const composer = queue.visibleToasts.length > 0 ? document.querySelector(COMPOSER) : null;
      if (composer !== watched) {
        if (watched) resize.unobserve(watched);
        if (composer) resize.observe(composer);
        watched = composer;
      }
      setClearance(composer ? Math.max(0, Math.round(window.innerHeight - composer.getBoundingClientRect().top)) : 0);
    }
    measure();
    const unsubscribe = queue.subscribe(measure);
    window.addEventListener('resize', measure);
    return () => {
      unsubscribe();
      window.removeEventListener('resize', measure);
      resize.disconnect();
    };
  }, []);
  return clearance;
}

/**
 * Render once at the app root. A labelled landmark ("Notifications", F6 reaches it); each toast is announced
 * (role="alert" content) and has a close button named 'Close'. Hovering or focusing the stack pauses the timers.
 * Newest first, and never over Send or Stop: on phones at the top, below the screen's 56 px header bar (the chat's
 * header, the admin's menu bar); from `sm` up in the bottom-right corner, lifted above the composer when there is one.
 */
export default function ToastRegion() {
  const clearance = useComposerClearance();
  return (
    <AriaToastRegion
      queue={queue}
      style={{ '--toast-clearance': `${clearance}px` } as CSSProperties}
      className={cx(
        'fixed inset-x-0 top-14 z-[60] flex flex-col gap-2 p-3 outline-hidden',
        'sm:inset-x-auto sm:top-auto sm:right-0 sm:bottom-[var(--toast-clearance)] sm:w-96 sm:flex-col-reverse sm:p-4',
      )}
    >
      {({ toast: item }) => {
        const { icon: Icon, iconClass, bar } = looks[item.content.type];
        return (
          <AriaToast
            toast={item}
            data-type={item.content.type}
            className={cx(
              'relative flex items-start gap-3 overflow-hidden rounded-xl border border-gray-200 bg-white py-3 pr-2 pl-4 text-gray-900 shadow-lg',
              'dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100',
              'transition duration-200 starting:translate-y-2 starting:opacity-0 motion-reduce:transition-none',
            )}
          >
            <span aria-hidden="true" className={cx('absolute inset-y-0 left-0 w-1', bar)} />
            <Icon aria-hidden="true" className={cx('mt-0.5 size-5 shrink-0', iconClass)} />
            <ToastContent className="flex min-w-0 flex-1 flex-col gap-0.5 py-0.5 text-sm">
              {item.content.title ? (
                <>
                  <Text slot="title" className="font-semibold">
                    {item.content.title}
                  </Text>
                  <Text slot="description" className="text-gray-700 dark:text-gray-300">
                    {item.content.message}
                  </Text>
                </>
              ) : (
                <Text slot="title" className="font-medium">
                  {item.content.message}
                </Text>
              )}
            </ToastContent>
            <AriaButton
              slot="close"
              aria-label="Close"
              className="flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-lg text-gray-500 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-white"
            >
              <X aria-hidden="true" className="size-4" />
            </AriaButton>
          </AriaToast>
        );
      }}
    </AriaToastRegion>
  );
}
