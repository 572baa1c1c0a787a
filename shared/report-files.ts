// Usage-report presentation shared by the server's CSV export and the SPA's tables.

/** Bytes as MB with 2 decimals (1024-based), as the reports show sizes. */
export function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2);
}

/** The export's file name: `department-report-2026.csv`, or with the chosen months `department-report-2026-01-03.csv`. */
export function reportFileName(type: string, year: number, months?: readonly number[]): string {
  const parts = [`${type}-report`, String(year), ...(months ?? []).map((m) => String(m).padStart(2, '0'))];
  return `${parts.join('-')}.csv`;
}
