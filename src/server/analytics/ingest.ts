// Page views in: each beacon is checked, turned into a view of a visit, and queued; the queue is
// written in one transaction at most a second later (or at 500 views), so recording a view
// never waits on the disk. A visit is a visitor's views with at most 30 minutes between them;
// the visits in progress are kept in memory (and read back from the database after a restart).
// A view still queued when the process is killed is lost: a count, never a visitor's data.
import { randomUUIDv7 } from 'node:crypto';
import { getTableColumns, gt, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { analyticsEvents, analyticsVisits } from '#db/schema/analytics.ts';
import { logger } from '#server/log.ts';
import { browserOf, campaignOf, deviceOf, referrerHost } from './classify.ts';

export const VISIT_IDLE_MS = 30 * 60_000;
const FLUSH_MS = 1_000;
const FLUSH_AT = 500;
/** Views beyond this many waiting are dropped (the disk cannot keep up; the site must). */
const QUEUE_MAX = 100_000;

type Visit = typeof analyticsVisits.$inferInsert & { id: string; last: Date; pageviews: number };

export interface View {
  ts: number;
  visitorId: string;
  /** The page's full address as the browser had it, and the referrer it reported. */
  url: URL;
  referrer: string;
  width: number;
  userAgent: string;
  /** The visitor's country ('' for none), from their address, which is not kept: asked only when a visit starts. */
  country: () => string;
}

/** Visits in progress kept in memory at most (beyond, new visitors' views are dropped and logged). */
const VISITS_MAX = 200_000;

interface IngestState {
  views: (typeof analyticsEvents.$inferInsert)[];
  /** Visits in progress by visitor, and those changed since the last write. */
  visits: Map<string, Visit>;
  dirty: Set<string>;
  loaded: boolean;
  timer: NodeJS.Timeout | null;
  flushSoon: boolean;
  dropped: number;
  db: Db | null;
}

// One queue for the whole process: the request handlers and the jobs (which write it before
// rolling a day up) load their own copies of this module.
const state: IngestState = ((globalThis as { analyticsIngest?: IngestState }).analyticsIngest ??= {
  views: [],
  visits: new Map(),
  dirty: new Set(),
  loaded: false,
  timer: null,
  flushSoon: false,
  dropped: 0,
  db: null,
});

/** After a restart, the visits of the last half hour go on rather than start again. */
function loadRecent(db: Db, now: number): void {
  state.loaded = true;
  for (const v of db
    .select()
    .from(analyticsVisits)
    .where(gt(analyticsVisits.last, new Date(now - VISIT_IDLE_MS)))
    .all()) {
    const known = state.visits.get(v.visitorId);
    if (!known || known.last < v.last) state.visits.set(v.visitorId, v);
  }
}

/** Pages whose address carries a secret (a download link, a booking's page) are counted under their section's path. */
const SECRET_PATHS = /^\/(download|book\/manage|account)\//;

/** A view's path: no query string (it can carry tokens), secret addresses cut short, at most 300 characters. */
export function pagePath(url: URL): string {
  const path = url.pathname.slice(0, 300);
  const secret = SECRET_PATHS.exec(path);
  return secret ? `/${secret[1]}` : path;
}

/** Records one page view (answers at once; written within a second). */
export function recordView(db: Db, view: View, siteHost: string): void {
  if (state.views.length >= QUEUE_MAX) {
    state.dropped++;
    return;
  }
  state.db = db;
  if (!state.loaded) loadRecent(db, view.ts);
  const path = pagePath(view.url);
  let visit = state.visits.get(view.visitorId);
  if (!visit && state.visits.size >= VISITS_MAX) {
    state.dropped++;
    return;
  }
  if (!visit || view.ts - visit.last.getTime() > VISIT_IDLE_MS) {
    const referrer = referrerHost(view.referrer, siteHost);
    const campaign = campaignOf(view.url);
    visit = {
      // Time-ordered (UUID version 7): a batch's new visits and their views' visit ids go at the
      // end of the tables' indexes, a few pages written, not one page of each index per visit.
      id: randomUUIDv7(),
      visitorId: view.visitorId,
      start: new Date(view.ts),
      last: new Date(view.ts),
      pageviews: 0,
      entryPath: path,
      exitPath: path,
      referrer,
      ...campaign,
      source: campaign.utmSource || referrer || 'Direct',
      device: deviceOf(view.width),
      ...browserOf(view.userAgent),
      country: view.country(),
    };
    state.visits.set(view.visitorId, visit);
  }
  visit.pageviews += 1;
  visit.last = new Date(Math.max(view.ts, visit.last.getTime()));
  visit.exitPath = path;
  state.dirty.add(view.visitorId);
  state.views.push({ ts: new Date(view.ts), visitorId: view.visitorId, visitId: visit.id, path });
  if (state.views.length >= FLUSH_AT && !state.flushSoon) {
    // Written just after this request is answered, not during it.
    state.flushSoon = true;
    setImmediate(() => {
      state.flushSoon = false;
      flushViews();
    });
  } else state.timer ??= setTimeout(flushViews, FLUSH_MS).unref();
}

/** The visit a visitor is in now (for a goal reached on the server), if any. */
export function currentVisit(db: Db, visitorId: string, now = Date.now()): Pick<Visit, 'id' | 'source'> | null {
  if (!state.loaded) loadRecent(db, now);
  const visit = state.visits.get(visitorId);
  return visit && now - visit.last.getTime() <= VISIT_IDLE_MS ? visit : null;
}

// The two statements a flush runs, prepared once per connection: building and preparing them
// for every row cost more than the write itself.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    insertView: db
      .insert(analyticsEvents)
      .values({ ts: p('ts'), visitorId: p('visitorId'), visitId: p('visitId'), path: p('path') })
      .prepare(),
    upsertVisit: db
      .insert(analyticsVisits)
      .values(Object.fromEntries(Object.keys(getTableColumns(analyticsVisits)).map((k) => [k, p(k)])) as unknown as typeof analyticsVisits.$inferInsert)
      .onConflictDoUpdate({ target: analyticsVisits.id, set: { last: sql`excluded.last`, pageviews: sql`excluded.pageviews`, exitPath: sql`excluded.exit_path` } })
      .prepare(),
  };
}

function statementsFor(db: Db) {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

/** Writes what is queued, in one transaction. */
export function flushViews(): void {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const db = state.db;
  if (!db || (state.views.length === 0 && state.dirty.size === 0)) return;
  const views = state.views.splice(0);
  const dirty = [...state.dirty].flatMap((id) => state.visits.get(id) ?? []);
  state.dirty.clear();
  try {
    const { insertView, upsertVisit } = statementsFor(db);
    db.$client.transaction(() => {
      for (const v of views) insertView.run(v);
      for (const v of dirty) upsertVisit.run(v);
    })();
  } catch (err) {
    logger.error({ err, views: views.length }, 'analytics: page views could not be written');
  }
  // Visits idle for half an hour are over: only the database keeps them.
  const cutoff = Date.now() - VISIT_IDLE_MS;
  for (const [id, v] of state.visits) if (v.last.getTime() < cutoff && !state.dirty.has(id)) state.visits.delete(id);
  if (state.dropped > 0) {
    logger.warn({ dropped: state.dropped }, 'analytics: page views dropped (the queue was full)');
    state.dropped = 0;
  }
}

// The serving process writes what is queued when it stops (scripts/serve.ts calls this).
(globalThis as { flushAnalytics?: () => void }).flushAnalytics = flushViews;

/** Page views waiting to be written (for tests and the bench). */
export const queuedViews = () => state.views.length;
