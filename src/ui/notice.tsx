import type { ReactNode } from 'react';
import { CircleCheck, Info, TriangleAlert } from 'lucide-react';
import { cx } from './cx';

export type NoticeTone = 'info' | 'warning' | 'success';

const tones: Record<NoticeTone, { box: string; icon: typeof Info; iconClass: string }> = {
  info: {
    box: 'border-blue-200 bg-blue-50 text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100',
    icon: Info,
    iconClass: 'text-blue-600 dark:text-blue-300',
  },
  warning: {
    box: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
    icon: TriangleAlert,
    iconClass: 'text-amber-600 dark:text-amber-300',
  },
  success: {
    box: 'border-green-200 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100',
    icon: CircleCheck,
    iconClass: 'text-green-600 dark:text-green-300',
  },
};

export interface NoticeProps {
  tone: NoticeTone;
  children: ReactNode;
  className?: string;
}

/** A calm, static message box (not announced; use ErrorBanner or a toast for news). */
export function Notice({ tone, children, className }: NoticeProps) {
  const { box, icon: Icon, iconClass } = tones[tone];
  return (
    <div className={cx('flex items-start gap-3 rounded-lg border px-3.5 py-3 text-sm leading-5', box, className)}>
      <Icon aria-hidden="true" className={cx('mt-0.5 size-4 shrink-0', iconClass)} />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
