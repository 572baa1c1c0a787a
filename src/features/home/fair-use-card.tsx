import { Label } from 'react-aria-components/Label';
import { Meter } from 'react-aria-components/Meter';
import type { FairUse } from '../../../contract/fair-use';
import { groupedNumber } from '../../../shared/grouped-number';
import { cx } from '../../ui/cx';

/** From here on the share is shown as a warning: admins get time to raise the subscription before questions stop. */
export const FAIR_USE_WARNING_PERCENT = 80;

/** What the admin is told at 100%: the chat refuses new questions with FAIR_USE_EXCEEDED from then on. */
export const FAIR_USE_SPENT = "This month's allowance is used up: new questions are refused until the 1st of next month (UTC) or until the subscription is raised.";

/**
 * The organisation's fair use of the month (README "Fair use"): tokens used of the allowance, as a meter. The
 * allowance comes from the subscription (fair use x seats x 1,000,000 tokens), so the admin sees how close the chat
 * is to refusing questions.
 */
export function FairUseCard({ fairUse, monthName }: { fairUse: FairUse; monthName: string }) {
  const spent = fairUse.used_tokens >= fairUse.allowance_tokens;
  const warn = !spent && fairUse.percent >= FAIR_USE_WARNING_PERCENT;
  const shown = Math.min(fairUse.percent, 100);
  return (
    <Meter value={shown} minValue={0} maxValue={100} valueLabel={`${fairUse.percent}%`} className="flex flex-col gap-3">
      {({ valueText }) => (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <Label className="text-base font-semibold text-gray-900 dark:text-gray-50">Fair use ({monthName})</Label>
            <span className="text-sm tabular-nums text-gray-700 dark:text-gray-200">
              {groupedNumber(fairUse.used_tokens)} of {groupedNumber(fairUse.allowance_tokens)} tokens ({valueText})
            </span>
          </div>
          <div className="h-3 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700">
            <div
              className={cx(
                'h-full rounded-full',
                spent ? 'bg-red-600 dark:bg-red-400' : warn ? 'bg-amber-500 dark:bg-amber-400' : 'bg-emerald-600 dark:bg-emerald-400',
              )}
              style={{ width: `${shown}%` }}
            />
          </div>
          {spent && <p className="text-sm font-medium text-red-700 dark:text-red-300">{FAIR_USE_SPENT}</p>}
        </>
      )}
    </Meter>
  );
}
