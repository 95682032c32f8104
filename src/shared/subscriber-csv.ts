// The subscribers' CSV, as the admin's 'Export CSV' gives it: built by papaparse (quoting and
// escaping are its job, not ours), one row per subscriber.
import Papa from 'papaparse';

export const CSV_HEADERS = ['Email', 'Name', 'Kit ID', 'Status', 'Subscribed Date'] as const;

/** How each status is written in the list and the CSV. */
export const STATUS_LABEL = { active: 'Active', pending: 'Pending', unsubscribed: 'Unsubscribed', bounced: 'Bounced' } as const;

export interface CsvSubscriber {
  email: string;
  name: string | null;
  convertKitId: string | null;
  isActive: boolean;
  status: keyof typeof STATUS_LABEL;
  subscribedAt: string | Date;
}

/** 'YYYY-MM-DD' of a timestamp, in UTC like every date the admin shows. */
const isoDate = (at: string | Date) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 10);
};

/**
 * Rows of the CSV (with the header row first when `header`), each ending in CRLF. Names come
 * from a public form, so cells that a spreadsheet would run as a formula (=, +, -, @ ...) are
 * escaped with a leading quote.
 */
export function csvRows(list: readonly CsvSubscriber[], header: boolean): string {
  const data = list.map((s) => [s.email, s.name ?? '', s.convertKitId ?? '', STATUS_LABEL[s.status], isoDate(s.subscribedAt)]);
  const text = Papa.unparse({ fields: [...CSV_HEADERS], data }, { escapeFormulae: true, newline: '\r\n', header });
  return text === '' ? '' : `${text}\r\n`;
}
