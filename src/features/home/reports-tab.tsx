import { useActorRef } from '@xstate/react';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { ReportFilters } from './report-filters';
import { ReportTable } from './report-table';
import { usageReportsMachine } from '../../../machines/usage-reports.machine';
import { listAllDepartments } from '../../api/departments';
import { exportReport, fetchDepartmentReport, fetchUserReport } from '../../api/usage-reports';
import { saveBlob } from '../../lib/file-download';
import { defineReportsActors } from './usage-actors';

const machine = usageReportsMachine.provide({
  actors: defineReportsActors({ api: { fetchDepartmentReport, fetchUserReport, listAllDepartments, exportReport, saveBlob } }),
});

/**
 * The Reports tab. Its machine starts when the tab opens (react-aria unmounts a hidden tab panel), which is what the
 * spec asks of switching to Reports: the departments are loaded and the filters start from their defaults.
 */
export function ReportsTab() {
  const actor = useActorRef(machine, { input: { currentYear: new Date().getUTCFullYear() } });
  useNoticeToasts(actor);
  return (
    <div className="space-y-6">
      <ReportFilters actor={actor} />
      <ReportTable actor={actor} />
    </div>
  );
}
