import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Subscriber } from '#admin/features/newsletter/api/subscribers.ts';
import { CSV_HEADERS, csvFileName, subscribersCsv } from '#admin/features/newsletter/components/subscriber-csv.ts';
import { filterSubscribers, oneMonthBefore, subscriberStats } from '#admin/features/newsletter/components/subscriber-stats.ts';

let nextId = 1;
const sub = (over: Partial<Subscriber> = {}): Subscriber => ({
  id: nextId++,
  email: `reader${nextId}@example.com`,
  name: null,
  convertKitId: null,
  isActive: true,
  status: over.isActive === false ? 'inactive' : 'active',
  subscribedAt: '2026-01-10T12:00:00.000Z',
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

describe('subscriberStats', () => {
  const now = new Date(2026, 5, 15, 12, 0);
  const daysAgo = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000).toISOString();

  it('counts total, active, synced, the sync rate and the last month', () => {
    const list = [
      sub({ convertKitId: 'kit_1', subscribedAt: daysAgo(57) }),
      sub({ subscribedAt: daysAgo(43) }),
      sub({ isActive: false, subscribedAt: daysAgo(32) }),
      sub({ subscribedAt: daysAgo(12) }),
      sub({ subscribedAt: daysAgo(3) }),
    ];
    expect(subscriberStats(list, now)).toEqual({ total: 5, active: 4, pending: 0, unsubscribed: 0, synced: 1, syncRate: 20, thisMonth: 2 });
  });

  it('is all zeros for an empty list (0% sync rate, not NaN)', () => {
    expect(subscriberStats([], now)).toEqual({ total: 0, active: 0, pending: 0, unsubscribed: 0, synced: 0, syncRate: 0, thisMonth: 0 });
  });

  it('rounds the sync rate to a whole percent', () => {
    expect(subscriberStats([sub({ convertKitId: 'a' }), sub(), sub()], now).syncRate).toBe(33);
    expect(subscriberStats([sub({ convertKitId: 'a' }), sub({ convertKitId: 'b' }), sub()], now).syncRate).toBe(67);
  });

  it('includes the subscriber exactly one month old and excludes one a minute older', () => {
    const edge = oneMonthBefore(now);
    const list = [sub({ subscribedAt: edge.toISOString() }), sub({ subscribedAt: new Date(edge.getTime() - 60_000).toISOString() })];
    expect(subscriberStats(list, now).thisMonth).toBe(1);
  });

  it('treats an empty Kit id as not synced', () => {
    expect(subscriberStats([sub({ convertKitId: '' })], now).synced).toBe(0);
  });
});

describe('filterSubscribers', () => {
  const list = [sub({ email: 'priya@example.com', name: 'Priya Raman' }), sub({ email: 'jordan@example.com', name: 'Jordan Blake' }), sub({ email: 'notes@example.com', name: null })];

  it('matches e-mail or name, case-insensitively, ignoring surrounding spaces', () => {
    expect(filterSubscribers(list, '  RAMAN ').map((s) => s.email)).toEqual(['priya@example.com']);
    expect(filterSubscribers(list, 'NOTES@').map((s) => s.email)).toEqual(['notes@example.com']);
  });

  it('keeps everyone for a blank query and nobody for a miss', () => {
    expect(filterSubscribers(list, '   ')).toHaveLength(3);
    expect(filterSubscribers(list, 'zzz')).toEqual([]);
  });
});

describe('subscribersCsv', () => {
  const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

  it('has the five headers and one row per subscriber, in order', () => {
    const csv = subscribersCsv([
      sub({ email: 'a@example.com', name: 'Ada', convertKitId: 'kit_1', subscribedAt: '2026-03-04T23:30:00.000Z' }),
      sub({ email: 'b@example.com', isActive: false, subscribedAt: '2026-02-01T00:00:00.000Z' }),
    ]);
    expect(parse(csv)).toEqual([[...CSV_HEADERS], ['a@example.com', 'Ada', 'kit_1', 'Active', '2026-03-04'], ['b@example.com', '', '', 'Inactive', '2026-02-01']]);
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

describe('csvFileName', () => {
  it('is dated with the local calendar day', () => {
    expect(csvFileName(new Date(2026, 0, 5, 23, 59))).toBe('newsletter-subscribers-2026-01-05.csv');
    expect(csvFileName(new Date(2026, 10, 22, 0, 1))).toBe('newsletter-subscribers-2026-11-22.csv');
  });
});

describe('subscriber statuses', () => {
  it('counts pending and unsubscribed apart, and writes each status in the CSV', () => {
    const list = [sub(), sub({ isActive: false, status: 'pending' }), sub({ isActive: false, status: 'unsubscribed' }), sub({ isActive: false })];
    expect(subscriberStats(list)).toMatchObject({ total: 4, active: 1, pending: 1, unsubscribed: 1 });
    const rows = Papa.parse<string[]>(subscribersCsv(list).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data.slice(1);
    expect(rows.map((r) => r[3])).toEqual(['Active', 'Pending', 'Unsubscribed', 'Inactive']);
  });
});
