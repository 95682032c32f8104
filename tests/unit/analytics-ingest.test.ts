// Page views are queued and written in batches: a batch the database refuses is not lost, it
// is written with the next one. On a real SQLite file, without a server.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'unit-ingest-'));
process.env.DATABASE_URL = join(dir, 'site.db');
process.env.UPLOADS_DIR = join(dir, 'uploads');
process.env.SITE_URL = 'https://coach.example';

/** A page view of /blog by `visitorId` at `ts`, as the beacon handler passes it on. */
const view = (visitorId: string, ts: number) => ({ ts, visitorId, url: new URL('https://coach.example/blog'), referrer: '', width: 1280, userAgent: 'Mozilla/5.0 Firefox/133.0', country: () => '' });

describe('writing page views', () => {
  it('keeps a batch the database refused and writes it with the next', async () => {
    const { getDb } = await import('#server/db.ts');
    const { flushViews, queuedViews, recordView } = await import('#server/analytics/ingest.ts');
    const db = getDb();
    const count = (table: string) => db.$client.prepare(`select count(*) as n from ${table}`).get() as { n: number };
    const view = (visitorId: string, path: string, ts: number) => ({
      ts,
      visitorId,
      url: new URL(`https://coach.example${path}`),
      referrer: 'https://news.ycombinator.com/',
      width: 1280,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      country: () => '',
    });
    const now = Date.now();
    recordView(db, view('a'.repeat(32), '/blog', now), 'coach.example');
    recordView(db, view('b'.repeat(32), '/podcast', now + 1), 'coach.example');

    // The write fails halfway (here a trigger says so; in life, a full disk or a lock held too long).
    db.$client.exec(`create temp trigger refuse before insert on analytics_visits begin select raise(abort, 'database or disk is full'); end`);
    flushViews();
    db.$client.exec('drop trigger refuse');
    expect(count('analytics_events').n).toBe(0);
    expect(queuedViews()).toBe(2);

    recordView(db, view('a'.repeat(32), '/about', now + 2), 'coach.example');
    // The next try waits a second (more after each failure in a row); the server stopping tries at once.
    expect(flushViews()).toBe(false);
    expect(queuedViews()).toBe(3);
    expect(flushViews(true)).toBe(true);
    expect(queuedViews()).toBe(0);
    expect(count('analytics_events').n).toBe(3);
    expect(db.$client.prepare('select pageviews, entry_path as entry, exit_path as exit from analytics_visits order by pageviews desc').all()).toEqual([
      { pageviews: 2, entry: '/blog', exit: '/about' },
      { pageviews: 1, entry: '/podcast', exit: '/podcast' },
    ]);
  });

  it('rolls a day up only once its views are written: never without the ones still waiting', async () => {
    const { getDb } = await import('#server/db.ts');
    const { flushViews, recordView } = await import('#server/analytics/ingest.ts');
    const { pruneAnalytics } = await import('#server/analytics/retention.ts');
    const db = getDb();
    const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
    const total = (day: string) => db.$client.prepare(`select pageviews from analytics_daily where kind = 'total' and day = ?`).get(day) as { pageviews: number } | undefined;
    const now = Date.now();
    const tomorrow = now - (now % 86_400_000) + 86_400_000;
    // One view of today is written; another waits when the day is rolled up after midnight.
    recordView(db, view('c'.repeat(32), now), 'coach.example');
    flushViews(true);
    recordView(db, view('d'.repeat(32), now + 1), 'coach.example');
    db.$client.exec(`create temp trigger refuse before insert on analytics_visits begin select raise(abort, 'database or disk is full'); end`);
    pruneAnalytics(db, tomorrow + 10 * 60_000);
    expect(total(dayOf(now))).toBeUndefined();
    db.$client.exec('drop trigger refuse');
    pruneAnalytics(db, tomorrow + 70 * 60_000);
    expect(total(dayOf(now))?.pageviews).toBe(2 + 3);
  });

  it('a flood of made-up visitors that fills the table of visits in progress forgets the visits seen longest ago, and a real visitor is still counted', async () => {
    const { getDb } = await import('#server/db.ts');
    const { VISITS_KEPT, flushViews, recordView } = await import('#server/analytics/ingest.ts');
    const db = getDb();
    VISITS_KEPT.max = 1_000;
    const now = Date.now();
    // Forged beacons (a new user agent each, so each a visitor of its own) past the visits kept,
    // while a reader goes on reading.
    recordView(db, view('f'.repeat(32), now), 'coach.example');
    for (let i = 0; i < 1_500; i++) {
      recordView(db, view(`flood-${i}`, now), 'coach.example');
      if (i === 800) recordView(db, view('f'.repeat(32), now), 'coach.example');
    }
    recordView(db, view('e'.repeat(32), now + 1), 'coach.example');
    recordView(db, view('f'.repeat(32), now + 1), 'coach.example');
    expect(flushViews(true)).toBe(true);
    const visits = db.$client.prepare('select pageviews from analytics_visits where visitor_id = ?');
    expect(visits.all('e'.repeat(32))).toEqual([{ pageviews: 1 }]);
    // The reader, seen recently, kept their visit: one visit of three views.
    expect(visits.all('f'.repeat(32))).toEqual([{ pageviews: 3 }]);
  });
});
