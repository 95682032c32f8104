import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import { localDay, oneMonthBefore } from '#admin/features/newsletter/components/subscriber-stats.ts';
import { CSV_HEADERS, csvRows } from '#shared/subscriber-csv.ts';

/** The whole CSV the export streams: the header row, then one row per subscriber. */
const subscribersCsv = (list: Subscriber[]) => csvRows(list, true);

let nextId = 1;
const sub = (over: Partial<Subscriber> = {}): Subscriber => ({
  id: nextId++,
  email: `reader${nextId}@example.com`,
  name: null,
  convertKitId: null,
  isActive: true,
  status: over.isActive === false ? 'unsubscribed' : 'active',
  subscribedAt: '2026-01-10T12:00:00.000Z',
  tags: [],
  source: null,
  ...over,
});

describe('oneMonthBefore', () => {
  it('goes back one calendar month, same day and time', () => {
    const d = oneMonthBefore(new Date(2026, 5, 15, 9, 30));
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2026, 4, 15, 9, 30]);
  });

  it('clamps to the end of a shorter month instead of overflowing', () => {
    const leap = oneMonthBefore(new Date(2024, 2, 31));
    expect([leap.getMonth(), leap.getDate()]).toEqual([1, 29]);
    const plain = oneMonthBefore(new Date(2026, 2, 30));
    expect([plain.getMonth(), plain.getDate()]).toEqual([1, 28]);
    const may = oneMonthBefore(new Date(2026, 4, 31));
    expect([may.getMonth(), may.getDate()]).toEqual([3, 30]);
  });

  it('crosses the year boundary', () => {
    const d = oneMonthBefore(new Date(2026, 0, 20));
    expect([d.getFullYear(), d.getMonth(), d.getDate()]).toEqual([2025, 11, 20]);
  });
});

describe('subscribersCsv', () => {
  const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

  it('has the five headers and one row per subscriber, in order', () => {
    const csv = subscribersCsv([
      sub({ email: 'a@example.com', name: 'Ada', convertKitId: 'kit_1', subscribedAt: '2026-03-04T23:30:00.000Z' }),
      sub({ email: 'b@example.com', isActive: false, subscribedAt: '2026-02-01T00:00:00.000Z' }),
    ]);
    expect(parse(csv)).toEqual([[...CSV_HEADERS], ['a@example.com', 'Ada', 'kit_1', 'Active', '2026-03-04'], ['b@example.com', '', '', 'Unsubscribed', '2026-02-01']]);
    expect(CSV_HEADERS).toEqual(['Email', 'Name', 'Kit ID', 'Status', 'Subscribed Date']);
  });

  it('quotes commas, quotes and line breaks so they round-trip', () => {
    const name = 'Doe, "Jay"\nJunior';
    const csv = subscribersCsv([sub({ email: 'jay@example.com', name })]);
    expect(csv).toContain('"Doe, ""Jay""\nJunior"');
    expect(parse(csv)[1][1]).toBe(name);
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    const csv = subscribersCsv([sub({ email: 'x@example.com', name: '=HYPERLINK("http://evil","click")' })]);
    expect(parse(csv)[1][1]).toBe(`'=HYPERLINK("http://evil","click")`);
  });

  it('is just the header row for no subscribers', () => {
    expect(parse(subscribersCsv([]))).toEqual([[...CSV_HEADERS]]);
  });
});

describe('localDay', () => {
  it('is the local calendar day that names the CSV', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localDay(new Date(2026, 10, 22, 0, 1))).toBe('2026-11-22');
  });
});

describe('subscriber statuses', () => {
  it('writes each status in the CSV', () => {
    const list = [sub(), sub({ isActive: false, status: 'pending' }), sub({ isActive: false, status: 'unsubscribed' }), sub({ isActive: false, status: 'bounced' })];
    const rows = Papa.parse<string[]>(subscribersCsv(list).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data.slice(1);
    expect(rows.map((r) => r[3])).toEqual(['Active', 'Pending', 'Unsubscribed', 'Bounced']);
  });
});
