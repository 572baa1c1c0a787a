import { cx } from './cx';

export interface SpinnerProps {
  /** Classes for the icon; the default size is `size-5`. Colour follows the text colour. */
  className?: string;
  /** When given, the spinner is announced (role="status"); without it, it is decorative. */
  label?: string;
}

/**
 * lucide's loader-circle, drawn here rather than imported from lucide-react: buttons and the route fallback use it,
 * so it is on the login route, where lucide-react's shared icon runtime would add about 1.5 KB (gzip).
 */
function LoaderCircle({ className }: { className: string }) {
  return (
    <svg
      aria-hidden="true"
      className={className}
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M21 12a9 9 0 1 1-6.219-8.56" />
    </svg>
  );
}

export function Spinner({ className, label }: SpinnerProps) {
  const icon = <LoaderCircle className={cx('shrink-0 animate-spin', className ?? 'size-5')} />;
  if (!label) return icon;
  return (
    <span role="status" className="inline-flex items-center">
      {icon}
      <span className="sr-only">{label}</span>
    </span>
  );
}
