import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cx } from './cx';

/**
 * A table on a laptop, a list of cards on a phone (under 640 px, Tailwind's `sm`). One markup for both: below
 * `sm` the table's rows are laid out as stacked cards and each cell shows its column's name before its value (the
 * `label` of `Cell`, drawn from `data-label` by CSS), so nothing sits off-screen at 390 px and the same controls
 * are there in both layouts (one DOM: no control exists twice, tests and screen readers find each once).
 *
 *   <ResponsiveTable aria-label="Users">
 *     <TableHead><HeaderCell>Name</HeaderCell><HeaderCell>Status</HeaderCell></TableHead>
 *     <TableBody>
 *       <Row><RowHeader>Ada</RowHeader><Cell label="Status">Active</Cell></Row>
 *     </TableBody>
 *   </ResponsiveTable>
 *
 * On a phone the column headers stay for screen readers only (`TableHead phone="hidden"`, the default), or become
 * a wrapping bar of their controls (`phone="bar"`: a sortable table's sort buttons stay usable).
 */

export interface ResponsiveTableProps extends HTMLAttributes<HTMLTableElement> {
  /** Under the table, inside its frame: the spinner, the empty or error sentence. */
  footer?: ReactNode;
  /** The frame's own attributes (e.g. aria-busy, id). */
  frameProps?: HTMLAttributes<HTMLDivElement>;
}

export function ResponsiveTable({ footer, frameProps, className, children, ...props }: ResponsiveTableProps) {
  return (
    <div
      {...frameProps}
      className={cx(
        // On a phone the cards carry their own borders: the frame only rounds the list.
        'overflow-x-auto rounded-xl border border-gray-200 dark:border-gray-700',
        'max-sm:overflow-x-visible max-sm:border-0',
        frameProps?.className,
      )}
    >
      <table {...props} className={cx('w-full text-left text-sm max-sm:block', className)}>
        {children}
      </table>
      {footer}
    </div>
  );
}

export function TableHead({ phone = 'hidden', children }: { phone?: 'hidden' | 'bar'; children: ReactNode }) {
  return (
    <thead
      className={cx(
        'bg-gray-50 text-gray-700 dark:bg-gray-800 dark:text-gray-200',
        phone === 'hidden'
          ? 'max-sm:sr-only'
          : 'max-sm:mb-3 max-sm:block max-sm:rounded-xl max-sm:border max-sm:border-gray-200 max-sm:px-2 max-sm:py-1.5 max-sm:dark:border-gray-700',
      )}
    >
      <tr className={cx(phone === 'bar' && 'max-sm:flex max-sm:flex-wrap max-sm:gap-x-2 max-sm:gap-y-1')}>{children}</tr>
    </thead>
  );
}

export function HeaderCell({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" {...props} className={cx('px-4 py-3 font-semibold max-sm:block max-sm:p-0', className)} />;
}

export function TableBody({ children }: { children: ReactNode }) {
  return <tbody className="max-sm:flex max-sm:flex-col max-sm:gap-3">{children}</tbody>;
}

export function Row({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return (
    <tr
      {...props}
      className={cx(
        'border-t border-gray-200 dark:border-gray-700',
        // The card: its own border and padding, the cells stacked one under another.
        'max-sm:flex max-sm:flex-col max-sm:gap-2 max-sm:rounded-xl max-sm:border max-sm:bg-white max-sm:p-4 max-sm:shadow-xs',
        'max-sm:dark:bg-gray-900',
        className,
      )}
    />
  );
}

const cellOnPhone =
  'max-sm:flex max-sm:min-w-0 max-sm:items-center max-sm:justify-between max-sm:gap-3 max-sm:p-0 max-sm:text-right ' +
  'max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:font-medium max-sm:before:text-gray-600 ' +
  'max-sm:before:content-[attr(data-label)] max-sm:dark:before:text-gray-300';

export interface CellProps extends TdHTMLAttributes<HTMLTableCellElement> {
  /** The column's name, shown before the value on a phone. */
  label: string;
}

/** A data cell; on a phone a line of the card: its label on the left, its value on the right. */
export function Cell({ label, className, ...props }: CellProps) {
  return <td data-label={label} {...props} className={cx('px-4 py-3', cellOnPhone, className)} />;
}

/** The row's own name (first column): the card's title on a phone, without a label. */
export function RowHeader({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="row" {...props} className={cx('px-4 py-3 text-left max-sm:block max-sm:min-w-0 max-sm:p-0', className)} />;
}
