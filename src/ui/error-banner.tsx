import { CircleAlert, X } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';

export interface ErrorBannerProps {
  message: string;
  title?: string;
  /** Shows a 'Dismiss' button. */
  onDismiss?(): void;
}

/** A red, announced error message (role="alert"). */
export function ErrorBanner({ message, title, onDismiss }: ErrorBannerProps) {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-3.5 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-300" />
      <div className="min-w-0 flex-1 leading-5">
        {title && <p className="font-semibold">{title}</p>}
        <p className="break-words">{message}</p>
      </div>
      {onDismiss && (
        <AriaButton
          aria-label="Dismiss"
          onPress={onDismiss}
          className="-my-1 -mr-1.5 flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-md text-red-700 hover:bg-red-100 dark:text-red-200 dark:hover:bg-red-900"
        >
          <X aria-hidden="true" className="size-4" />
        </AriaButton>
      )}
    </div>
  );
}
