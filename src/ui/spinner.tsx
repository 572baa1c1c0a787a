import { LoaderCircle } from 'lucide-react';
import { cx } from './cx';

export interface SpinnerProps {
  /** Classes for the icon; the default size is `size-5`. Colour follows the text colour. */
  className?: string;
  /** When given, the spinner is announced (role="status"); without it, it is decorative. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  const icon = <LoaderCircle aria-hidden="true" className={cx('shrink-0 animate-spin', className ?? 'size-5')} />;
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
