// How the dashboard names months: the server sends 'YYYY-MM' UTC calendar months.
const monthOf = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y!, (m ?? 1) - 1, 1));
};

const longFormat = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortFormat = new Intl.DateTimeFormat('en', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** 'November 2026' (the Top 3 / Top 5 titles, the table alternative). */
export const longMonth = (month: string) => longFormat.format(monthOf(month));
/** 'Nov 26' (the chart's axis, where twelve must fit). */
export const shortMonth = (month: string) => shortFormat.format(monthOf(month));
