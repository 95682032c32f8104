// The owner's figures for a range of UTC days, and the same for the period just before it:
// visitors (a visitor is counted once a day: their id changes with the day's salt), page views,
// visits, bounce rate and visit length, the series, the top pages, entry pages, sources,
// campaigns, devices, browsers and goals with their conversion rates and sources.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import type { AnalyticsDto, AnalyticsTotals } from '#shared/schemas/analytics.ts';

const DAY_MS = 86_400_000;
const TOP = 20;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Range {
  start: number;
  end: number;
}

const rows = <T>(db: Db, query: SQL) => db.all<T>(query);
const one = <T>(db: Db, query: SQL) => db.get<T>(query);

function totals(db: Db, r: Range): AnalyticsTotals {
  const views = one<{ visitors: number; pageviews: number }>(
    db,
    sql`select count(distinct visitor_id) as visitors, count(*) as pageviews from analytics_events where ts >= ${r.start} and ts < ${r.end}`,
  );
  const visits = one<{ visits: number; bounces: number | null; duration: number | null }>(
    db,
    sql`select count(*) as visits, sum(pageviews = 1) as bounces, avg(last - start) as duration from analytics_visits where start >= ${r.start} and start < ${r.end}`,
  );
  return {
    visitors: views.visitors,
    pageviews: views.pageviews,
    visits: visits.visits,
    bounceRate: visits.visits ? Math.round(((visits.bounces ?? 0) * 1000) / visits.visits) / 10 : 0,
    visitDuration: Math.round((visits.duration ?? 0) / 1000),
  };
}

/** Visitors by one column of the visits (a visitor counted once per value). */
const byVisitColumn = (db: Db, r: Range, column: SQL, where: SQL = sql`1`) =>
  rows<{ key: string; visitors: number }>(
    db,
    sql`select ${column} as key, count(distinct visitor_id) as visitors from analytics_visits where start >= ${r.start} and start < ${r.end} and ${where} group by key order by visitors desc, key limit ${TOP}`,
  );

export function analyticsReport(db: Db, fromDay: string, toDay: string): AnalyticsDto {
  const r = { start: Date.parse(`${fromDay}T00:00:00Z`), end: Date.parse(`${toDay}T00:00:00Z`) + DAY_MS };
  const before = { start: r.start - (r.end - r.start), end: r.start };
  const hourly = r.end - r.start === DAY_MS;
  // A single day by the hour, longer ranges by the day; every bucket shown, empty ones as 0.
  const bucket = hourly ? sql`strftime('%Y-%m-%dT%H', ts / 1000, 'unixepoch')` : sql`strftime('%Y-%m-%d', ts / 1000, 'unixepoch')`;
  const counted = new Map(
    rows<{ date: string; visitors: number; pageviews: number }>(
      db,
      sql`select ${bucket} as date, count(distinct visitor_id) as visitors, count(*) as pageviews from analytics_events where ts >= ${r.start} and ts < ${r.end} group by date`,
    ).map((s) => [s.date, s]),
  );
  const series: AnalyticsDto['series'] = [];
  for (let t = r.start; t < r.end; t += hourly ? 3_600_000 : DAY_MS) {
    const date = hourly ? new Date(t).toISOString().slice(0, 13) : day(t);
    series.push(counted.get(date) ?? { date, visitors: 0, pageviews: 0 });
  }
  const current = totals(db, r);
  const goalRows = rows<{ goal: string; conversions: number; converted: number; value: number }>(
    db,
    sql`select g.goal as goal, count(*) as conversions, count(distinct coalesce(v.visitor_id, 'g' || g.id)) as converted, sum(g.value) as value
        from analytics_goals g left join analytics_visits v on v.id = g.visit_id
        where g.ts >= ${r.start} and g.ts < ${r.end} group by g.goal order by conversions desc`,
  );
  const goalSources = rows<{ goal: string; source: string; conversions: number }>(
    db,
    sql`select goal, source, count(*) as conversions from analytics_goals where ts >= ${r.start} and ts < ${r.end} group by goal, source order by conversions desc`,
  );
  return {
    from: fromDay,
    to: toDay,
    ...current,
    previous: totals(db, before),
    series,
    topPages: rows(
      db,
      sql`select path, count(distinct visitor_id) as visitors, count(*) as pageviews from analytics_events where ts >= ${r.start} and ts < ${r.end} group by path order by visitors desc, pageviews desc, path limit ${TOP}`,
    ),
    entryPages: rows(db, sql`select entry_path as path, count(*) as visits from analytics_visits where start >= ${r.start} and start < ${r.end} group by path order by visits desc, path limit ${TOP}`),
    referrers: byVisitColumn(db, r, sql`source`).map((s) => ({ source: s.key, visitors: s.visitors })),
    campaigns: byVisitColumn(db, r, sql`utm_campaign`, sql`utm_campaign != ''`).map((s) => ({ campaign: s.key, visitors: s.visitors })),
    devices: byVisitColumn(db, r, sql`device`).map((s) => ({ device: s.key, visitors: s.visitors })),
    browsers: byVisitColumn(db, r, sql`browser`).map((s) => ({ browser: s.key, visitors: s.visitors })),
    goals: goalRows.map((g) => ({
      goal: g.goal,
      conversions: g.conversions,
      conversionRate: current.visitors ? Math.round((g.converted * 1000) / current.visitors) / 10 : 0,
      value: g.value,
      sources: goalSources.filter((s) => s.goal === g.goal).map(({ source, conversions }) => ({ source, conversions })),
    })),
  };
}

/** The range asked for, or the last 30 days to today. */
export function rangeOf(q: { from?: string | undefined; to?: string | undefined }, now = Date.now()): { from: string; to: string } {
  const to = q.to ?? day(now);
  return { from: q.from ?? day(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS), to };
}
