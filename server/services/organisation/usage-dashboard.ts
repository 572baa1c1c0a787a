import type { Kysely } from 'kysely';
import { dashboard, type Dashboard } from '../../../contract/usage-reports';
import { DASHBOARD_MONTHS, DASHBOARD_REFRESH_MS, DASHBOARD_TOP_DEPARTMENTS, DASHBOARD_TOP_USERS } from '../../../contract/usage-reports-constants';
import type { Database } from '../../db/database';
import { findDashboardSnapshot, saveDashboardSnapshot } from '../../db/repositories/dashboard-snapshots';
import { peoplePerMonth, topDepartments, topUsers } from '../../db/repositories/usage-reports';
import { organisationIn, type Scope } from '../scope';
import type { FairUseMeter } from './fair-use';
import { monthKey, monthStart } from './usage-period';

/** Computes the organisation's dashboard now (last 12 UTC months, the current one last) and stores it as its latest. */
export async function generateDashboard(db: Kysely<Database>, fairUse: FairUseMeter, scope: Scope): Promise<Dashboard> {
  const clientId = organisationIn(scope);
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const firstMonth = month - (DASHBOARD_MONTHS - 1);
  const currentMonth = { from: monthStart(year, month), to: monthStart(year, month + 1) };

  const [perMonth, departments, users] = await Promise.all([
    peoplePerMonth(db, clientId, { from: monthStart(year, firstMonth), to: currentMonth.to }),
    topDepartments(db, clientId, currentMonth, DASHBOARD_TOP_DEPARTMENTS),
    topUsers(db, clientId, currentMonth, DASHBOARD_TOP_USERS),
  ]);
  const counts = new Map(perMonth.map((m) => [m.month, m.count]));
  const data: Dashboard = {
    user_month: Array.from({ length: DASHBOARD_MONTHS }, (_, i) => {
      const key = monthKey(year, firstMonth + i);
      return { month: key, count: counts.get(key) ?? 0 };
    }),
    top3_dept: departments.map((d) => ({ [d.name]: d.count })),
    top5_user: users,
    generated_at: now.toISOString(),
    fair_use: await fairUse.of(clientId, now),
  };
  await saveDashboardSnapshot(db, clientId, { data: JSON.stringify(data), generated_at: data.generated_at });
  return data;
}

/**
 * The organisation's latest dashboard while it is fresh (younger than DASHBOARD_REFRESH_MS, the SPA's refresh
 * interval), else a new one: many admins watching the dashboard cost one computation per interval.
 */
export async function latestDashboard(db: Kysely<Database>, fairUse: FairUseMeter, scope: Scope): Promise<Dashboard> {
  const clientId = organisationIn(scope);
  const snapshot = await findDashboardSnapshot(db, clientId);
  if (snapshot && Date.now() - Date.parse(snapshot.generated_at) < DASHBOARD_REFRESH_MS) {
    // A snapshot stored by an older shape of the dashboard is simply made again.
    const stored = dashboard.safeParse(safeJson(snapshot.data));
    // The fair use is read fresh: an admin watching it near 100% sees the share the chat is refused at.
    if (stored.success) return { ...stored.data, fair_use: await fairUse.of(clientId) };
  }
  return generateDashboard(db, fairUse, scope);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
