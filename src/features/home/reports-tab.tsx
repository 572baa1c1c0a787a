import { useActorRef } from '@xstate/react';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { ReportFilters } from './report-filters';
import { ReportTable } from './report-table';
import { reportsTabMachine } from './usage-actors';

/**
 * The Reports tab. Its machine starts when the tab opens (react-aria unmounts a hidden tab panel), which is what the
 * spec asks of switching to Reports: the departments are loaded and the filters start from their defaults.
 */
export function ReportsTab() {
  const actor = useActorRef(reportsTabMachine, { input: { currentYear: new Date().getUTCFullYear() } });
  useNoticeToasts(actor);
  return (
    <div className="space-y-6">
      <ReportFilters actor={actor} />
      <ReportTable actor={actor} />
    </div>
  );
}
