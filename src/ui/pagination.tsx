import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { cx } from './cx';
import { pageWindow } from './page-window';

export interface PaginationProps {
  /** The current page, 1-based. */
  page: number;
  totalPages: number;
  onPageChange(page: number): void;
  /** The nav's accessible name (default 'Pagination'). */
  label?: string;
  className?: string;
}

const item =
  'flex h-9 min-w-9 cursor-pointer items-center justify-center rounded-lg px-2 text-sm font-medium tabular-nums transition-colors ' +
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 motion-reduce:transition-none';
const idle = 'text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-700';
const current = 'bg-primary text-gray-900 hover:bg-primary-dark';

/** Previous / pages / Next. Renders nothing when there is at most one page. */
export function Pagination({ page, totalPages, onPageChange, label = 'Pagination', className }: PaginationProps) {
  if (totalPages <= 1) return null;
  const go = (p: number) => {
    if (p >= 1 && p <= totalPages && p !== page) onPageChange(p);
  };
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <AriaButton aria-label="Previous page" isDisabled={page <= 1} onPress={() => go(page - 1)} className={cx(item, idle)}>
            <ChevronLeft aria-hidden="true" className="size-4" />
          </AriaButton>
        </li>
        {pageWindow(page, totalPages).map((p, i) =>
          p === 'ellipsis' ? (
            <li key={`gap-${i}`} aria-hidden="true" className="flex h-9 min-w-6 items-center justify-center text-sm text-gray-500 dark:text-gray-400">
              …
            </li>
          ) : (
            <li key={p}>
              <AriaButton
                aria-label={`Page ${p}`}
                aria-current={p === page ? 'page' : undefined}
                onPress={() => go(p)}
                className={cx(item, p === page ? current : idle)}
              >
                {p}
              </AriaButton>
            </li>
          ),
        )}
        <li>
          <AriaButton aria-label="Next page" isDisabled={page >= totalPages} onPress={() => go(page + 1)} className={cx(item, idle)}>
            <ChevronRight aria-hidden="true" className="size-4" />
          </AriaButton>
        </li>
      </ul>
    </nav>
  );
}
