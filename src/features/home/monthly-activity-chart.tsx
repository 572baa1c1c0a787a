import { useSyncExternalStore } from 'react';
import { ResponsiveLine } from '@nivo/line';
import type { Dashboard } from '../../../contract/usage-reports';
import { longMonth, shortMonth } from './month-label';
import { isDark, subscribeColorScheme } from '../../lib/color-scheme';

/**
 * The 'Monthly User Activity' line chart (nivo). Loaded on its own (React.lazy from usage-summary.tsx), so the
 * chart library is fetched only when an admin's Usage Summary draws it, never for other routes.
 * Spec section 5: the y axis starts at 0 and steps by whole numbers (people are counted, not measured).
 * The colours follow the page's scheme (the person's theme choice, else the system's), as `dark:` does.
 */

const useDark = () => useSyncExternalStore(subscribeColorScheme, isDark, () => false);

/** Whole-number ticks from 0 that cover `max` in at most 5 steps. */
export function integerTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  const step = Math.max(1, Math.ceil(top / 5));
  const ticks: number[] = [];
  for (let v = 0; v < top + step; v += step) ticks.push(v);
  return ticks;
}

// Tailwind's grays and a blue that keeps 3:1 against both backgrounds.
const palette = {
  light: { text: '#374151', grid: '#E5E7EB', line: '#2563eb', tooltipBg: '#ffffff', tooltipText: '#111827' },
  dark: { text: '#E5E7EB', grid: '#374151', line: '#60a5fa', tooltipBg: '#1f2937', tooltipText: '#F9FAFB' },
};

export default function MonthlyActivityChart({ months }: { months: Dashboard['user_month'] }) {
  const colors = useDark() ? palette.dark : palette.light;
  const ticks = integerTicks(Math.max(0, ...months.map((m) => m.count)));
  const data = [{ id: 'User Count', data: months.map((m) => ({ x: m.month, y: m.count })) }];
  const latest = months.at(-1);
  return (
    // The chart measures its box on resize, a frame or two late: until then a narrowed window must not scroll
    // sideways (seen in CI at 390 px: the svg still 939 px wide). Clipped on x only, so tooltips above stay whole.
    <div className="h-72 w-full min-w-0 overflow-x-clip">
      <ResponsiveLine
        data={data}
        role="img"
        ariaLabel={`Monthly User Activity chart: ${latest ? `${latest.count} users in ${longMonth(latest.month)}` : 'no data'}. Use Show as table for every month.`}
        margin={{ top: 16, right: 24, bottom: 40, left: 48 }}
        xScale={{ type: 'point' }}
        yScale={{ type: 'linear', min: 0, max: ticks.at(-1)!, stacked: false }}
        axisBottom={{ tickSize: 0, tickPadding: 10, format: (v: string) => shortMonth(v) }}
        axisLeft={{ tickSize: 0, tickPadding: 10, tickValues: ticks, format: (v: number) => String(v), legend: 'User Count', legendOffset: -40, legendPosition: 'middle' }}
        gridYValues={ticks}
        enableGridX={false}
        colors={[colors.line]}
        lineWidth={2}
        pointSize={8}
        pointColor={colors.line}
        pointBorderWidth={0}
        useMesh
        animate={false}
        theme={{
          text: { fill: colors.text, fontSize: 12 },
          axis: { ticks: { text: { fill: colors.text } }, legend: { text: { fill: colors.text } } },
          grid: { line: { stroke: colors.grid } },
          crosshair: { line: { stroke: colors.text } },
        }}
        tooltip={({ point }) => (
          <div
            className="rounded-md px-2.5 py-1.5 text-sm shadow-md"
            style={{ background: colors.tooltipBg, color: colors.tooltipText }}
          >
            <div className="font-medium">{longMonth(String(point.data.x))}</div>
            <div>Users: {point.data.y}</div>
          </div>
        )}
      />
    </div>
  );
}
