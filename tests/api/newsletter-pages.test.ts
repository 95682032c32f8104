// The newsletter admin at 50,000 subscribers: the list is paged, searched and counted by the
// server, and the CSV export is streamed from the database. The plain call still answers the
// whole list.
import { count } from 'drizzle-orm';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const COUNT = 50_000;
const DAY = 24 * 3600 * 1000;
const NOW = Date.now();
let before = 0;

beforeAll(() => {
  before = server.db.select({ n: count() }).from(newsletterSubscribers).get()!.n;
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    email: `reader${i}@bulk.example`,
    name: i % 10 === 0 ? null : `Reader ${i}${i === 777 ? ' 100%_sure' : ''}`,
    convertKitId: i % 4 === 0 ? `kit_${i}` : null,
    // Every 5th is inactive: alternately unsubscribed and waiting for confirmation.
    isActive: i % 5 !== 0,
    unsubscribedAt: i % 10 === 0 ? new Date(NOW - DAY) : null,
    confirmTokenHash: i % 10 === 5 ? `hash-${i}` : null,
    // One a minute, newest first by index.
    subscribedAt: new Date(NOW - i * 60_000),
  }));
  server.db.transaction((tx) => {
    for (let i = 0; i < rows.length; i += 1000)
      tx.insert(newsletterSubscribers)
        .values(rows.slice(i, i + 1000))
        .run();
  });
});

interface Page {
  items: { email: string; name: string | null; status: string }[];
  total: number;
  page: number;
  pageSize: number;
  stats: { total: number; active: number; pending: number; unsubscribed: number; synced: number; syncRate: number; thisMonth: number };
}

const pageOf = async (query: string) => {
  const res = await admin.request('GET', `/api/newsletter/subscribers?${query}`);
  expect(res.status, query).toBe(200);
  return res.body as Page;
};

describe('the newsletter list, paged on the server', () => {
  it('answers one page, newest first, with the count and the stat cards figured over the whole list', async () => {
    const since = new Date(NOW - 30 * DAY).toISOString();
    const first = await pageOf(`page=1&pageSize=50&since=${encodeURIComponent(since)}`);
    expect(first.items).toHaveLength(50);
    expect(first.items[0].email).toBe('reader0@bulk.example');
    expect(first.items[49].email).toBe('reader49@bulk.example');
    expect(first.total).toBe(before + COUNT);
    const all = before + COUNT;
    expect(first.stats.total).toBe(all);
    // The bulk rows: 40,000 active, 5,000 unsubscribed, 5,000 pending, 12,500 synced; all within the month.
    const seeded = server.db.select().from(newsletterSubscribers).all().slice(0, before);
    expect(first.stats.active).toBe(40_000 + seeded.filter((s) => s.isActive).length);
    expect(first.stats.unsubscribed).toBeGreaterThanOrEqual(5_000);
    expect(first.stats.pending).toBeGreaterThanOrEqual(5_000);
    expect(first.stats.synced).toBe(12_500 + seeded.filter((s) => s.convertKitId).length);
    expect(first.stats.syncRate).toBe(Math.round((first.stats.synced / all) * 100));
    // One a minute: the last 30 days hold 43,201 of the bulk rows.
    const since30 = NOW - 30 * DAY;
    expect(first.stats.thisMonth).toBe(
      server.db
        .select()
        .from(newsletterSubscribers)
        .all()
        .filter((s) => s.subscribedAt.getTime() >= since30).length,
    );
    expect(first.stats.thisMonth).toBeGreaterThanOrEqual(43_201);

    const second = await pageOf('page=2&pageSize=50');
    expect(second.items[0].email).toBe('reader50@bulk.example');
  });

  it('searches e-mail and name on the server, case-insensitively, taking % and _ literally', async () => {
    const byName = await pageOf('q=READER 49999&pageSize=10');
    expect(byName.items.map((s) => s.email)).toEqual(['reader49999@bulk.example']);
    expect(byName.total).toBe(1);
    const byEmail = await pageOf('q=reader1234@&pageSize=10');
    expect(byEmail.items.map((s) => s.email)).toEqual(['reader1234@bulk.example']);
    const literal = await pageOf(`q=${encodeURIComponent('100%_sure')}`);
    expect(literal.items.map((s) => s.email)).toEqual(['reader777@bulk.example']);
    const many = await pageOf('q=reader12&pageSize=5');
    // reader12, reader120-129, reader1200-1299, reader12000-12999.
    expect(many.total).toBe(1 + 10 + 100 + 1000);
    expect(many.items).toHaveLength(5);
    // The stat cards stay those of the whole list.
    expect(many.stats.total).toBe(before + COUNT);
  });

  it('still answers the whole list to the plain call', async () => {
    const res = await admin.request('GET', '/api/newsletter/subscribers');
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(before + COUNT);
  });

  it('refuses bad paging with 400, and anyone but an admin', async () => {
    for (const q of ['pageSize=500', 'page=0', 'since=not-a-date', `q=${'x'.repeat(201)}`]) {
      expect((await admin.request('GET', `/api/newsletter/subscribers?${q}`)).status, q).toBe(400);
    }
    expect((await user.request('GET', '/api/newsletter/subscribers?page=1')).status).toBe(403);
  });
});

describe('the CSV export', () => {
  it('streams every subscriber with the header row, named after the given day', async () => {
    const res = await fetch(`${server.url}/api/newsletter/subscribers/export?date=2026-11-24`, { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="newsletter-subscribers-2026-11-24.csv"');
    // Decoded keeping the byte-order mark, which spreadsheet apps need to read UTF-8.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\ufeffEmail,Name,Kit ID,Status,Subscribed Date\r\n')).toBe(true);
    const { data, errors } = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(errors).toEqual([]);
    expect(data).toHaveLength(before + COUNT);
    expect(new Set(data.map((r) => r.Email)).size).toBe(before + COUNT);
    expect(data[0]).toMatchObject({ Email: 'reader0@bulk.example', Name: '', 'Kit ID': 'kit_0', Status: 'Unsubscribed' });
    expect(data.find((r) => r.Email === 'reader5@bulk.example')?.Status).toBe('Pending');
  });

  it('is for admins only', async () => {
    expect((await fetch(`${server.url}/api/newsletter/subscribers/export`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/newsletter/subscribers/export`, { headers: { Cookie: user.cookie } })).status).toBe(403);
  });
});
