import { useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { ArrowDown, ArrowUp, ArrowUpDown, Download } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import { APPLY_FILTERS_HINT, NO_REPORT_DATA, REPORT_TYPE_LABELS } from '../../../contract/usage-reports-constants';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { REPORT_PAGE_SIZES, type UsageReportsMachine } from '../../../machines/usage-reports.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { Pagination } from '../../ui/pagination';
import { Cell, HeaderCell, ResponsiveTable, Row, TableBody, TableHead } from '../../ui/responsive-table';
import { Select } from '../../ui/select';
import { Spinner } from '../../ui/spinner';
import { REPORT_COLUMNS, type ReportRow } from './report-columns';

const PAGE_SIZE_ITEMS = REPORT_PAGE_SIZES.map((n) => ({ id: String(n), label: String(n) }));
const sortButton =
  'inline-flex cursor-pointer items-center gap-1.5 rounded-md px-1 py-0.5 font-semibold hover:text-gray-900 dark:hover:text-white';

/** The report's results: a sortable, paged table (server-side sort and pages), page size and the CSV export. */
export function ReportTable({ actor }: { actor: ActorRefFrom<UsageReportsMachine> }) {
  const state = useSelector(
    actor,
    (s) => ({
      applied: s.context.applied,
      sort: s.context.sort,
      exporting: s.hasTag('exporting'),
      canExport: s.can({ type: 'report.export' }),
    }),
    shallowEqual,
  );
  const listRef = useSelector(actor, (s) => s.children.list);
  const list = useSelector(listRef, (s) => (s ? pagerView<ReportRow>(s) : null), (a, b) => (a && b ? samePagerView(a, b) : a === b));
  const pageSize = useSelector(listRef, (s) => s?.context.pageSize ?? null);

  const applied = state.applied;
  if (!applied || !list) {
    return <EmptyState />;
  }
  const columns = REPORT_COLUMNS[applied.reportType];
  const title = REPORT_TYPE_LABELS[applied.reportType];

  return (
    <section aria-labelledby="report-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="report-title" className="text-base font-semibold text-gray-900 dark:text-gray-50">
          {title} <span className="font-normal text-gray-600 dark:text-gray-300">({list.total} {list.total === 1 ? 'row' : 'rows'})</span>
        </h2>
        <Button variant="secondary" size="sm" isDisabled={!state.canExport} isPending={state.exporting} onPress={() => actor.send({ type: 'report.export' })}>
          <Download aria-hidden className="size-4" /> Export CSV
        </Button>
      </div>
      <ResponsiveTable
        frameProps={{ 'aria-busy': list.loading }}
        footer={
          <>
            {list.loading && list.items.length === 0 && (
              <div className="flex justify-center p-6">
                <Spinner label="Loading report" />
              </div>
            )}
            {!list.loading && list.items.length === 0 && (
              <p className="p-6 text-center text-sm text-gray-700 dark:text-gray-300">{list.error ?? NO_REPORT_DATA}</p>
            )}
          </>
        }
      >
        <caption className="sr-only">{title}</caption>
        {/* On a phone the sort buttons stay, as a bar above the cards. */}
        <TableHead phone="bar">
          {columns.map((c) => {
            const sorted = state.sort.column === c.key ? state.sort.direction : null;
            const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
            return (
              <HeaderCell
                key={c.key}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
                className={cx('px-3 py-2.5', c.numeric && 'text-right')}
              >
                <AriaButton className={sortButton} onPress={() => actor.send({ type: 'report.sort', column: c.key })}>
                  {c.label}
                  <Icon aria-hidden className={cx('size-3.5', !sorted && 'opacity-50')} />
                </AriaButton>
              </HeaderCell>
            );
          })}
        </TableHead>
        <TableBody>
          {list.items.map((row) => (
            <Row key={row.id}>
              {columns.map((c) => (
                <Cell key={c.key} label={c.label} className={cx('px-3 py-2.5', c.numeric && 'text-right tabular-nums')}>
                  {c.cell(row as unknown as Record<string, unknown>)}
                </Cell>
              ))}
            </Row>
          ))}
        </TableBody>
      </ResponsiveTable>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Select
          label="Rows per page"
          className="w-36"
          items={PAGE_SIZE_ITEMS}
          selectedKey={pageSize ? String(pageSize) : null}
          onSelectionChange={(key) => key && actor.send({ type: 'report.pageSize', pageSize: Number(key) })}
        />
        <Pagination
          label="Report pages"
          page={list.page}
          totalPages={list.totalPages}
          onPageChange={(page) => actor.send({ type: 'report.goTo', page })}
        />
      </div>
    </section>
  );
}

function EmptyState() {
  return (
    <div className="rounded-2xl border border-dashed border-gray-300 p-10 text-center dark:border-gray-600">
      <p className="font-medium text-gray-900 dark:text-gray-100">{NO_REPORT_DATA}</p>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-300">{APPLY_FILTERS_HINT}</p>
    </div>
  );
}
