// The owner's figures for a range of UTC days (rolled-up days and the raw rows of the days not
// rolled up yet, ./rollup.ts), and the same for the period just before it:
// visitors (a visitor is counted once a day: their id changes with the day's salt), page views,
// visits, bounce rate and visit length, the series, the top pages, entry pages, sources,
// campaigns, devices, browsers and goals with their conversion rates and sources.
import { sql, type SQL } from 'drizzle-orm';
import { figuresOver, rolledUntil, seriesOver, type Figures, type Kind } from './rollup.ts';
import type { Db } from '#db/client.ts';
import type { AnalyticsDto, AnalyticsTotals } from '#shared/schemas/analytics.ts';
import { badRequest } from '#server/http/errors.ts';
import { addDays, DAY_MS, utcDay } from '#shared/time.ts';

const TOP = 20;

interface Range {
  start: number;
  end: number;
}

const rows = <T>(db: Db, query: SQL) => db.all<T>(query);

function totals(db: Db, r: Range, now: number): AnalyticsTotals {
  const t = figuresOver(db, 'total', r.start, r.end, now)[0];
  if (!t) return { visitors: 0, pageviews: 0, visits: 0, bounceRate: 0, visitDuration: 0 };
  return {
    visitors: t.visitors,
    pageviews: t.pageviews,
    visits: t.visits,
    bounceRate: t.visits ? Math.round((t.bounces * 1000) / t.visits) / 10 : 0,
    visitDuration: t.visits ? Math.round(t.duration / t.visits / 1000) : 0,
  };
}

/** The top keys of a kind by visitors (then page views or visits). */
function top(db: Db, kind: Kind, r: Range, by: 'pageviews' | 'visits' = 'pageviews'): Figures[] {
  return figuresOver(db, kind, r.start, r.end)
    .sort((a, b) => b.visitors - a.visitors || b[by] - a[by] || a.key.localeCompare(b.key))
    .slice(0, TOP);
}

export function analyticsReport(db: Db, fromDay: string, toDay: string, now = Date.now()): AnalyticsDto {
  const r = { start: Date.parse(`${fromDay}T00:00:00Z`), end: Date.parse(`${toDay}T00:00:00Z`) + DAY_MS };
  // The period before is as many days just before the range. A range running to today is
  // compared up to the same time of day: today at 09:00 against yesterday from midnight until
  // 09:00, the last 7 days against the 7 before them until 09:00 on their last day.
  // A range wholly in the future is compared with whole days.
  const length = r.end - r.start;
  const elapsed = Math.min(r.end, Math.max(now, r.start)) - r.start;
  const before = { start: r.start - length, end: r.start - length + (elapsed > 0 ? elapsed : length) };
  // One day by the hour while its page views are kept; a day rolled up has its total only.
  const hourly = r.end - r.start === DAY_MS && r.start >= rolledUntil(db);
  // A single day by the hour, longer ranges by the day; every bucket shown, empty ones as 0.
  const counted = seriesOver(db, r.start, r.end, hourly);
  const series: AnalyticsDto['series'] = [];
  for (let t = r.start; t < r.end; t += hourly ? 3_600_000 : DAY_MS) {
    const date = hourly ? new Date(t).toISOString().slice(0, 13) : utcDay(t);
    series.push({ date, ...(counted.get(date) ?? { visitors: 0, pageviews: 0 }) });
  }
  const current = totals(db, r, now);
  const goalRows = rows<{ goal: string; conversions: number; value: number }>(
    db,
    sql`select goal, count(*) as conversions, sum(value) as value from analytics_goals where ts >= ${r.start} and ts < ${r.end} group by goal order by conversions desc`,
  );
  const goalSources = rows<{ goal: string; source: string; conversions: number }>(
    db,
    sql`select goal, source, count(*) as conversions from analytics_goals where ts >= ${r.start} and ts < ${r.end} group by goal, source order by conversions desc`,
  );
  return {
    from: fromDay,
    to: toDay,
    ...current,
    previous: totals(db, before, now),
    series,
    topPages: top(db, 'page', r).map((f) => ({ path: f.key, visitors: f.visitors, pageviews: f.pageviews })),
    entryPages: figuresOver(db, 'entry', r.start, r.end)
      .sort((a, b) => b.visits - a.visits || a.key.localeCompare(b.key))
      .slice(0, TOP)
      .map((f) => ({ path: f.key, visits: f.visits })),
    referrers: top(db, 'source', r, 'visits').map((f) => ({ source: f.key, visitors: f.visitors })),
    campaigns: top(db, 'campaign', r, 'visits').map((f) => ({ campaign: f.key, visitors: f.visitors })),
    devices: top(db, 'device', r, 'visits').map((f) => ({ device: f.key, visitors: f.visitors })),
    browsers: top(db, 'browser', r, 'visits').map((f) => ({ browser: f.key, visitors: f.visitors })),
    countries: top(db, 'country', r, 'visits').map((f) => ({ country: f.key, visitors: f.visitors })),
    goals: goalRows.map((g) => ({
      goal: g.goal,
      conversions: g.conversions,
      // Conversions per 100 visitors (a goal is not tied to its visitor, see goals.ts).
      conversionRate: current.visitors ? Math.round((g.conversions * 1000) / current.visitors) / 10 : 0,
      value: g.value,
      sources: goalSources.filter((s) => s.goal === g.goal).map(({ source, conversions }) => ({ source, conversions })),
    })),
  };
}

/**
 * The range asked for, or the last 30 days to today; 400 when it runs backwards or over two
 * years (checked here, after a missing end is filled in, rather than in the query's schema).
 */
export function rangeOf(q: { from?: string | undefined; to?: string | undefined }, now = Date.now()): { from: string; to: string } {
  const to = q.to ?? utcDay(now);
  const from = q.from ?? addDays(to, -29);
  if (from > to) throw badRequest('to must not be before from', [{ path: ['to'], message: 'to must not be before from' }]);
  if (Date.parse(to) - Date.parse(from) > 731 * DAY_MS) throw badRequest('At most two years at a time', [{ path: ['to'], message: 'At most two years at a time' }]);
  return { from, to };
}
