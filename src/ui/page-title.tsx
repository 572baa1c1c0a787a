import { useEffect, type ReactNode } from 'react';

const APP_NAME = 'Tanya';

/**
 * Names the browser tab: '{title} · Tanya', or 'Tanya' alone for the product's own page. The route's title is set by
 * the layout (app/route-titles.ts); a page whose title is its content (the chat: the conversation) passes it here.
 * Browsers cut a long title themselves, so it is given whole.
 */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (title === null || title === undefined) return;
    const trimmed = title.trim();
    document.title = !trimmed || trimmed === APP_NAME ? APP_NAME : `${trimmed} · ${APP_NAME}`;
  }, [title]);
}

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
