// The admin's own calendar, which the newsletter screen sends to the server: where its
// "This Month" card starts, and the day that names the CSV export.

/**
 * The same moment one calendar month earlier, clamped to the end of a shorter month
 * (31 March -> 28/29 February), in local time: the spec's "last month" window.
 */
export function oneMonthBefore(now: Date): Date {
  const d = new Date(now);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  const daysInMonth = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
  d.setDate(Math.min(day, daysInMonth));
  return d;
}

/** Where the newsletter's "This Month" starts, to the minute (so the app's early fetch asks for the same page as the screen). */
export function newsletterSince(now: Date = new Date()): string {
  const minute = new Date(now);
  minute.setSeconds(0, 0);
  return oneMonthBefore(minute).toISOString();
}

/** 'YYYY-MM-DD' of the admin's local calendar day. */
export function localDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
