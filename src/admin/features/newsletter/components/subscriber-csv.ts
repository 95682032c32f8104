// The 'Export CSV' file's name and its download; the rows are the shared CSV's.
import { CSV_HEADERS, csvRows } from '#shared/subscriber-csv.ts';
import type { Subscriber } from '#admin/features/newsletter/api/subscribers.ts';

export { CSV_HEADERS };

/** The whole CSV of a list: the header row, then one row per subscriber. */
export const subscribersCsv = (list: readonly Subscriber[]): string => csvRows(list, true).replace(/\r\n$/, '');

/** newsletter-subscribers-YYYY-MM-DD.csv, dated with the admin's own calendar day. */
export function csvFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `newsletter-subscribers-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

/** Saves text as a file through a temporary object URL. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  // The byte-order mark lets spreadsheet apps read non-ASCII names as UTF-8.
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
