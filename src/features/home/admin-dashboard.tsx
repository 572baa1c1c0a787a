import { PageTitle } from '../../ui/page-title';
import { Tabs } from '../../ui/tabs';
import { ReportsTab } from './reports-tab';
import { UsageSummary } from './usage-summary';

/** The admin's /home (administration spec section 2): the usage dashboard in two tabs. */
export function AdminDashboard() {
  return (
    <div className="mx-auto max-w-6xl space-y-6 p-6 md:p-10">
      <PageTitle>Usage Dashboard</PageTitle>
      <Tabs
        label="Usage dashboard"
        tabs={[
          { id: 'summary', label: 'Usage Summary', content: <UsageSummary /> },
          { id: 'reports', label: 'Reports', content: <ReportsTab /> },
        ]}
      />
    </div>
  );
}
