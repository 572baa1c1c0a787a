import type { HTMLAttributes } from 'react';
import { cx } from './cx';

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Inner padding (default true). */
  padded?: boolean;
}

/** A white (dark: gray-900) rounded panel with a hairline border. */
export function Card({ padded = true, className, ...props }: CardProps) {
  return (
    <div
      {...props}
      className={cx(
        'rounded-2xl border border-gray-200 bg-white shadow-xs dark:border-gray-700 dark:bg-gray-900',
        padded && 'p-5 sm:p-6',
        className,
      )}
    />
  );
}
