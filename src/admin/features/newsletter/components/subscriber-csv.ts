// The 'Export CSV' file: built by papaparse (quoting and escaping are its job, not ours).
import Papa from 'papaparse';
import { STATUS_LABEL, type Subscriber } from '#admin/features/newsletter/api/subscribers.ts';

export const CSV_HEADERS = ['Email', 'Name', 'Kit ID', 'Status', 'Subscribed Date'] as const;

/** 'YYYY-MM-DD' of an ISO timestamp, in UTC like every date the admin shows. */
const isoDate = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
};

/**
 * One row per subscriber. Names come from a public form, so cells that a spreadsheet would
 * run as a formula (=, +, -, @ ...) are escaped with a leading quote.
 */
export function subscribersCsv(list: readonly Subscriber[]): string {
  return Papa.unparse(
    { fields: [...CSV_HEADERS], data: list.map((s) => [s.email, s.name ?? '', s.convertKitId ?? '', STATUS_LABEL[s.status] ?? (s.isActive ? 'Active' : 'Inactive'), isoDate(s.subscribedAt)]) },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

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
