import type { Dashboard } from '../../../contract/usage-reports';
import { longMonth } from './month-label';

/** The chart's numbers as a table: for keyboard and screen-reader users, and anyone who wants the exact counts. */
export function MonthlyActivityTable({ months, id }: { months: Dashboard['user_month']; id?: string }) {
  return (
    <div id={id} className="overflow-x-auto rounded-xl border border-gray-200 dark:border-gray-700">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Monthly User Activity</caption>
        <thead className="bg-gray-50 text-gray-700 dark:bg-gray-800 dark:text-gray-200">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">Month</th>
            <th scope="col" className="px-4 py-2 text-right font-semibold">User Count</th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month} className="border-t border-gray-200 dark:border-gray-700">
              <th scope="row" className="px-4 py-2 font-normal">{longMonth(m.month)}</th>
              <td className="px-4 py-2 text-right tabular-nums">{m.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
