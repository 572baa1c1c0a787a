import type { ReactNode } from 'react';

export interface PageTitleProps {
  children: ReactNode;
  description?: ReactNode;
  className?: string;
}

/** The page's one h1, with an optional line under it. No outer margin: the page spaces it. */
export function PageTitle({ children, description, className }: PageTitleProps) {
  return (
    <div className={className}>
      <h1 className="text-2xl font-semibold tracking-tight text-gray-900 dark:text-gray-50">{children}</h1>
      {description && <p className="mt-1 text-sm text-gray-600 dark:text-gray-300">{description}</p>}
    </div>
  );
}
