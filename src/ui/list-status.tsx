import type { ReactNode } from 'react';
import { Button } from './button';
import { cx } from './cx';
import { ErrorBanner } from './error-banner';
import { Spinner } from './spinner';

/**
 * The rows every list of the admin screens shows around its items, written once: a failed load with 'Try again'
 * (`ListError`), and, while the list has no items, the spinner or the empty sentence (`ListStatus`).
 */

export interface ListErrorProps {
  /** The failed load's sentence (null: nothing failed, nothing shown). */
  message: string | null;
  onRetry(): void;
  /** A load is running: 'Try again' waits for it. */
  busy: boolean;
}

/** A failed load above the list: its sentence and 'Try again'. */
export function ListError({ message, onRetry, busy }: ListErrorProps) {
  if (!message) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <div className="min-w-0 flex-1">
        <ErrorBanner message={message} />
      </div>
      <Button onPress={onRetry} isDisabled={busy}>
        Try again
      </Button>
    </div>
  );
}

export interface ListStatusProps {
  /** The list has items: nothing to say. */
  hasItems: boolean;
  /** A load is running: the spinner, named `loadingLabel`. */
  busy: boolean;
  loadingLabel: string;
  /** What an empty list says (null: nothing, e.g. when the failure is said above it). */
  empty: ReactNode;
  /** The empty sentence's frame (e.g. a border when it stands outside a table). */
  className?: string;
}

/** Under an empty list: the spinner while it loads, else its empty sentence. */
export function ListStatus({ hasItems, busy, loadingLabel, empty, className }: ListStatusProps) {
  if (hasItems) return null;
  if (busy) {
    return (
      <div className="flex justify-center p-6">
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  if (empty === null) return null;
  return <p className={cx('p-6 text-center text-sm text-gray-700 dark:text-gray-300', className)}>{empty}</p>;
}
