// The figures of a stretch of time, from the raw page views and visits (the last 30 days), and
// each past UTC day's figures rolled up into analytics_daily once the day is over, so that a
// year can be shown after the raw rows are gone and a month is read from 30 rows per key rather
// than a million views. A visitor's id changes every day, so counting distinct visitors per day
// and adding the days up is the same as counting them over the whole stretch.
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';
import { analyticsDaily } from '#db/schema/analytics.ts';

export const KINDS = ['total', 'page', 'entry', 'source', 'campaign', 'device', 'browser', 'country'] as const;
export type Kind = (typeof KINDS)[number];

export interface Figures {
  key: string;
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  duration: number;
}

type Reader = Pick<Db, 'get' | 'all'>;
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The visits' column each kind groups by. */
const VISIT_COLUMN: Record<Exclude<Kind, 'total' | 'page'>, SQL> = {
  entry: sql`entry_path`,
  source: sql`source`,
  campaign: sql`utm_campaign`,
  device: sql`device`,
  browser: sql`browser`,
  country: sql`country`,
};

/** One kind's figures from the raw rows of [start, end). */
export function rawFigures(db: Reader, kind: Kind, start: number, end: number): Figures[] {
  if (kind === 'total') {
    // From the visits alone (a third as many rows as views): a visit never crosses midnight (the
    // visitor's id changes with the day), so whole days' visits hold every view and visitor.
    const t = db.get<{ visitors: number; pageviews: number | null; visits: number; bounces: number | null; duration: number | null }>(
      sql`select count(distinct visitor_id) as visitors, sum(pageviews) as pageviews, count(*) as visits, sum(pageviews = 1) as bounces, sum(last - start) as duration from analytics_visits where start >= ${start} and start < ${end}`,
    );
    return t.visits ? [{ key: '', visitors: t.visitors, pageviews: t.pageviews ?? 0, visits: t.visits, bounces: t.bounces ?? 0, duration: t.duration ?? 0 }] : [];
  }
  if (kind === 'page') {
    return db.all<Figures>(
      sql`select path as key, count(distinct visitor_id) as visitors, count(*) as pageviews, 0 as visits, 0 as bounces, 0 as duration from analytics_events where ts >= ${start} and ts < ${end} group by path`,
    );
  }
  const column = VISIT_COLUMN[kind];
  return db.all<Figures>(
    sql`select ${column} as key, count(distinct visitor_id) as visitors, sum(pageviews) as pageviews, count(*) as visits, sum(pageviews = 1) as bounces, sum(last - start) as duration
        from analytics_visits where start >= ${start} and start < ${end} and (${kind === 'campaign' || kind === 'country' ? sql`${column} != ''` : sql`1`}) group by key`,
  );
}

/** Keys kept per kind and day: the rest are added up under '(other)' (made-up paths do not pile up for good). */
const KEYS_PER_DAY = 1_000;

function capped(figures: Figures[]): Figures[] {
  if (figures.length <= KEYS_PER_DAY) return figures;
  const sorted = [...figures].sort((a, b) => b.visitors - a.visitors || b.pageviews - a.pageviews);
  const other = sorted
    .slice(KEYS_PER_DAY - 1)
    .reduce<Figures>(
      (o, f) => ({
        key: '(other)',
        visitors: o.visitors + f.visitors,
        pageviews: o.pageviews + f.pageviews,
        visits: o.visits + f.visits,
        bounces: o.bounces + f.bounces,
        duration: o.duration + f.duration,
      }),
      { key: '(other)', visitors: 0, pageviews: 0, visits: 0, bounces: 0, duration: 0 },
    );
  return [...sorted.slice(0, KEYS_PER_DAY - 1), other];
}

/** The first UTC day not rolled up yet: every day before it is in analytics_daily. */
export function rolledUntil(db: Db): number {
  const last = db.get<{ day: string | null }>(sql`select max(day) as day from analytics_daily where kind = 'total'`).day;
  return last ? dayStart(last) + DAY_MS : 0;
}

/** Rolls up the days that are over and not rolled yet (oldest first, a few at a time); answers how many. */
export function rollUpDays(db: Db, now = Date.now(), max = 7): number {
  // A day is rolled up five minutes after it ends, once its last views are surely written.
  const today = dayStart(utcDay(now - 5 * 60_000));
  const from = rolledUntil(db);
  const first = db.get<{ ts: number | null }>(sql`select min(ts) as ts from analytics_events where ts >= ${from} and ts < ${today}`).ts;
  if (first === null) return 0;
  let done = 0;
  for (let day = dayStart(utcDay(first)); day < today && done < max; day += DAY_MS, done++) {
    const name = utcDay(day);
    db.transaction((tx) => {
      tx.delete(analyticsDaily).where(eq(analyticsDaily.day, name)).run();
      // A 'total' row for every day rolled, even an empty one: it marks the day as done.
      const rows = KINDS.flatMap((kind) => capped(rawFigures(tx, kind, day, day + DAY_MS)).map((f) => ({ day: name, kind, ...f })));
      if (!rows.some((r) => r.kind === 'total')) rows.push({ day: name, kind: 'total', key: '', visitors: 0, pageviews: 0, visits: 0, bounces: 0, duration: 0 });
      for (let i = 0; i < rows.length; i += 200)
        tx.insert(analyticsDaily)
          .values(rows.slice(i, i + 200))
          .run();
    });
  }
  return done;
}

/** Days the raw rows (page views, visits) are kept before only the rolled-up figures are. */
export const RAW_DAYS = 30;

/**
 * One kind's figures over [start, end): rolled-up days from analytics_daily, the rest from the
 * raw rows. A rolled-up day only partly in the range (the period before a range running to now:
 * yesterday until 09:00) takes its part from the raw rows while they are kept, and after that
 * its share of the day's figures (a quarter of the day, a quarter of its visitors).
 */
export function figuresOver(db: Db, kind: Kind, start: number, end: number, now = Date.now()): Figures[] {
  const byKey = new Map<string, Figures>();
  const add = (f: Figures) => {
    const known = byKey.get(f.key);
    if (!known) return void byKey.set(f.key, { ...f });
    known.visitors += f.visitors;
    known.pageviews += f.pageviews;
    known.visits += f.visits;
    known.bounces += f.bounces;
    known.duration += f.duration;
  };
  const rolledDays = (from: number, until: number) =>
    db
      .select({
        key: analyticsDaily.key,
        visitors: sql<number>`sum(${analyticsDaily.visitors})`,
        pageviews: sql<number>`sum(${analyticsDaily.pageviews})`,
        visits: sql<number>`sum(${analyticsDaily.visits})`,
        bounces: sql<number>`sum(${analyticsDaily.bounces})`,
        duration: sql<number>`sum(${analyticsDaily.duration})`,
      })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.kind, kind), gte(analyticsDaily.day, utcDay(from)), lt(analyticsDaily.day, utcDay(until))))
      .groupBy(analyticsDaily.key)
      .all();
  const partOfDay = (from: number, until: number) => {
    if (from >= now - RAW_DAYS * DAY_MS) return rawFigures(db, kind, from, until).forEach(add);
    const day = from - (from % DAY_MS);
    const share = (until - from) / DAY_MS;
    for (const f of rolledDays(day, day + DAY_MS)) {
      add({
        key: f.key,
        visitors: Math.round(f.visitors * share),
        pageviews: Math.round(f.pageviews * share),
        visits: Math.round(f.visits * share),
        bounces: Math.round(f.bounces * share),
        duration: Math.round(f.duration * share),
      });
    }
  };
  const split = Math.min(Math.max(rolledUntil(db), start), end);
  // [from, until): the rolled-up days, a part day at either end taken on its own.
  let from = start;
  let until = split;
  if (until > from && from % DAY_MS !== 0) {
    const next = Math.min(from - (from % DAY_MS) + DAY_MS, until);
    partOfDay(from, next);
    from = next;
  }
  if (until > from && until % DAY_MS !== 0) {
    const last = Math.max(until - (until % DAY_MS), from);
    partOfDay(last, until);
    until = last;
  }
  if (until > from) rolledDays(from, until).forEach(add);
  if (end > split) rawFigures(db, kind, split, end).forEach(add);
  return [...byKey.values()];
}

/** Visitors and page views per day (per hour for one day) over [start, end). */
export function seriesOver(db: Db, start: number, end: number, hourly: boolean): Map<string, { visitors: number; pageviews: number }> {
  const out = new Map<string, { visitors: number; pageviews: number }>();
  const split = hourly ? start : Math.min(Math.max(rolledUntil(db), start), end);
  if (split > start) {
    for (const r of db
      .select({ day: analyticsDaily.day, visitors: analyticsDaily.visitors, pageviews: analyticsDaily.pageviews })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.kind, 'total'), gte(analyticsDaily.day, utcDay(start)), lt(analyticsDaily.day, utcDay(split))))
      .all())
      out.set(r.day, { visitors: r.visitors, pageviews: r.pageviews });
  }
  if (end > split) {
    // By the hour from the views; by the day from the visits (whole days, as for the totals).
    const query = hourly
      ? sql`select strftime('%Y-%m-%dT%H', ts / 1000, 'unixepoch') as date, count(distinct visitor_id) as visitors, count(*) as pageviews from analytics_events where ts >= ${split} and ts < ${end} group by date`
      : sql`select strftime('%Y-%m-%d', start / 1000, 'unixepoch') as date, count(distinct visitor_id) as visitors, sum(pageviews) as pageviews from analytics_visits where start >= ${split} and start < ${end} group by date`;
    for (const r of db.all<{ date: string; visitors: number; pageviews: number }>(query)) out.set(r.date, { visitors: r.visitors, pageviews: r.pageviews });
  }
  return out;
}
