import type { ReactNode } from 'react';
import { CircleAlert, ScissorsLineDashed } from 'lucide-react';
import type { ErrorMarkerType } from '../../../shared/markers';
import { cx } from '../cx';
import { ERROR_MARKER_TITLES } from './remark-markers';

export type MessageErrorType = ErrorMarkerType;

export interface MessageErrorProps {
  /** 'llm' (default): the model failed; 'max-tokens': the reply was cut at the token limit. */
  type?: MessageErrorType;
  /** The marker's text. */
  children?: ReactNode;
  /** What happened, instead of the marker type's title (a reply lost to the network says so in the same box). */
  title?: string;
  className?: string;
}

const looks: Record<MessageErrorType, { icon: typeof CircleAlert; box: string; iconClass: string }> = {
  llm: {
    icon: CircleAlert,
    box: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100',
    iconClass: 'text-red-600 dark:text-red-400',
  },
  'max-tokens': {
    icon: ScissorsLineDashed,
    box: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
    iconClass: 'text-amber-600 dark:text-amber-400',
  },
};

/**
 * An error inside an assistant message (the error marker). Part of the history, so a calm note, not an alert.
 */
export function MessageError({ type = 'llm', children, className, title }: MessageErrorProps) {
  const { icon: Icon, box, iconClass } = looks[type] ?? looks.llm;
  return (
    <div data-error-type={type} className={cx('my-3 flex items-start gap-3 rounded-lg border px-3.5 py-3 text-sm leading-6', box, className)}>
      <Icon aria-hidden="true" className={cx('mt-1 size-4 shrink-0', iconClass)} />
      <div className="min-w-0 flex-1">
        <p className="m-0! font-semibold">{title ?? ERROR_MARKER_TITLES[type] ?? ERROR_MARKER_TITLES.llm}</p>
        {children && <div className="[&>*]:my-1!">{children}</div>}
      </div>
    </div>
  );
}
