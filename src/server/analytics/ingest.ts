// Page views in: each beacon is checked, turned into a view of a visit, and queued; the queue is
// written in one transaction at most a second later (or at 500 views), so recording a view
// never waits on the disk. A visit is a visitor's views with at most 30 minutes between them;
// the visits in progress are kept in memory (and read back from the database after a restart).
// A view still queued when the process is killed is lost: a count, never a visitor's data. A
// write that fails is tried again a second later with everything queued since.
//
// What waits in memory makes no new objects per view: a view is a time, its visit (an object
// already kept) and its path (one shared string per distinct path). Objects that live for the
// second until the write outlast many young-generation collections, so each was copied and then
// moved to the old generation, to be collected again there: the cost of a beacon doubled among
// page traffic.
import { randomUUIDv7 } from 'node:crypto';
import { getTableColumns, getTableName, gt } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { analyticsEvents, analyticsVisits } from '#db/schema/analytics.ts';
import { logger } from '#server/log.ts';
import { browserOf, campaignOf, deviceOf, referrerHost } from './classify.ts';

export const VISIT_IDLE_MS = 30 * 60_000;
const FLUSH_MS = 1_000;
const FLUSH_AT = 500;
/** Views beyond this many waiting are dropped (the disk cannot keep up; the site must). */
const QUEUE_MAX = 100_000;

/** A visit as kept in memory: its row, with its start and last view in ms. */
type Visit = { [K in keyof typeof analyticsVisits.$inferSelect]: (typeof analyticsVisits.$inferSelect)[K] extends Date ? number : (typeof analyticsVisits.$inferSelect)[K] };

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

/**
 * Visits in progress kept in memory at most: beyond, the visit seen longest ago is forgotten (its
 * views already queued are still written; a later view of it starts a new visit), so that a
 * flood of made-up visitors cannot shut real ones out. (An object, so that a test can make it small.)
 */
export const VISITS_KEPT = { max: 200_000 };
/** Distinct paths shared by the queued views; past it the table starts again. */
const PATHS_KEPT = 10_000;

interface IngestState {
  /** The queued views, one entry per view in each: when, which visit, which path. */
  queued: { ts: number[]; visit: Visit[]; path: string[] };
  /** Visits in progress by visitor, the one seen longest ago first, and those changed since the last write. */
  visits: Map<string, Visit>;
  dirty: Set<Visit>;
  paths: Map<string, string>;
  loaded: boolean;
  timer: NodeJS.Timeout | null;
  flushSoon: boolean;
  /** After a write failed: no write is tried before then (doubling up to a minute), nor asked for by new views. */
  retryAt: number;
  retryMs: number;
  dropped: number;
  db: Db | null;
}

// One queue for the whole process: the request handlers fill it, the jobs write it before
// rolling a day up, and scripts/serve.ts when the server stops.
const state: IngestState = {
  queued: { ts: [], visit: [], path: [] },
  visits: new Map(),
  dirty: new Set(),
  paths: new Map(),
  loaded: false,
  timer: null,
  flushSoon: false,
  retryAt: 0,
  retryMs: 0,
  dropped: 0,
  db: null,
};

/** After a restart, the visits of the last half hour go on rather than start again. */
function loadRecent(db: Db, now: number): void {
  state.loaded = true;
  for (const row of db
    .select()
    .from(analyticsVisits)
    .where(gt(analyticsVisits.last, new Date(now - VISIT_IDLE_MS)))
    .orderBy(analyticsVisits.last)
    .all()) {
    const v: Visit = { ...row, start: row.start.getTime(), last: row.last.getTime() };
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

/** The one copy of a path that queued views share. */
function sharedPath(path: string): string {
  const known = state.paths.get(path);
  if (known !== undefined) return known;
  if (state.paths.size >= PATHS_KEPT) state.paths.clear();
  state.paths.set(path, path);
  return path;
}

/** Records one page view (answers at once; written within a second). */
export function recordView(db: Db, view: View, siteHost: string): void {
  const queued = state.queued;
  if (queued.ts.length >= QUEUE_MAX) {
    state.dropped++;
    return;
  }
  state.db = db;
  if (!state.loaded) loadRecent(db, view.ts);
  const path = sharedPath(pagePath(view.url));
  const visits = state.visits;
  let visit = visits.get(view.visitorId);
  if (visit) {
    // Moved to the end: the table stays in the order its visitors were last seen.
    visits.delete(view.visitorId);
    visits.set(view.visitorId, visit);
  } else if (visits.size >= VISITS_KEPT.max) visits.delete(visits.keys().next().value!);
  if (!visit || view.ts - visit.last > VISIT_IDLE_MS) {
    const referrer = referrerHost(view.referrer, siteHost);
    const campaign = campaignOf(view.url);
    visit = {
      // Time-ordered (UUID version 7): a batch's new visits and their views' visit ids go at the
      // end of the tables' indexes, a few pages written, not one page of each index per visit.
      id: randomUUIDv7(),
      visitorId: view.visitorId,
      start: view.ts,
      last: view.ts,
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
    visits.set(view.visitorId, visit);
  }
  visit.pageviews += 1;
  if (view.ts > visit.last) visit.last = view.ts;
  visit.exitPath = path;
  state.dirty.add(visit);
  queued.ts.push(view.ts);
  queued.visit.push(visit);
  queued.path.push(path);
  if (queued.ts.length >= FLUSH_AT && !state.flushSoon && state.retryMs === 0) {
    // Written just after this request is answered, not during it.
    state.flushSoon = true;
    setImmediate(() => {
      state.flushSoon = false;
      flushViews();
    });
  } else state.timer ??= setTimeout(flushViews, FLUSH_MS).unref();
}

/** The visit a visitor is in now (for a goal reached on the server), if any. */
export function currentVisit(db: Db, visitorId: string, now = Date.now()): Pick<Visit, 'id' | 'source' | 'utmCampaign'> | null {
  if (!state.loaded) loadRecent(db, now);
  const visit = state.visits.get(visitorId);
  return visit && now - visit.last <= VISIT_IDLE_MS ? visit : null;
}

// The statements a flush runs, prepared once per connection. They are the driver's own, with
// the values in the tables' column order (the names come from the schema): a view or a visit
// goes in as it is kept, times in ms as the columns hold them, with nothing built per row. A
// visit already written is updated by its id: only what a view changes is sent, not the whole row.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>();
const VISIT_KEYS = Object.keys(getTableColumns(analyticsVisits)) as (keyof Visit)[];

function prepare(db: Db) {
  const events = getTableColumns(analyticsEvents);
  const visits = getTableColumns(analyticsVisits);
  const view = [events.ts, events.visitorId, events.visitId, events.path].map((c) => `"${c.name}"`);
  const column = (k: keyof Visit) => `"${visits[k].name}"`;
  const table = `"${getTableName(analyticsVisits)}"`;
  return {
    insertView: db.$client.prepare(`insert into "${getTableName(analyticsEvents)}" (${view.join(', ')}) values (?, ?, ?, ?)`),
    insertVisit: db.$client.prepare(`insert into ${table} (${VISIT_KEYS.map(column).join(', ')}) values (${VISIT_KEYS.map(() => '?').join(', ')})`),
    updateVisit: db.$client.prepare(`update ${table} set ${column('last')} = ?, ${column('pageviews')} = ?, ${column('exitPath')} = ? where ${column('id')} = ?`),
  };
}

function statementsFor(db: Db) {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

/**
 * Writes what is queued, in one transaction; answers whether nothing is left waiting. After a
 * failed write the next is tried only once its wait is over, unless `now` (the server stopping).
 */
export function flushViews(now = false): boolean {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const db = state.db;
  const q = state.queued;
  if (!db || (q.ts.length === 0 && state.dirty.size === 0)) return true;
  if (!now && Date.now() < state.retryAt) {
    state.timer = setTimeout(flushViews, state.retryAt - Date.now()).unref();
    return false;
  }
  state.queued = { ts: [], visit: [], path: [] };
  const dirty = [...state.dirty];
  state.dirty.clear();
  try {
    const { insertView, insertVisit, updateVisit } = statementsFor(db);
    db.$client.transaction(() => {
      for (let i = 0; i < q.ts.length; i++) insertView.run(q.ts[i], q.visit[i]!.visitorId, q.visit[i]!.id, q.path[i]);
      for (const v of dirty) if (updateVisit.run(v.last, v.pageviews, v.exitPath, v.id).changes === 0) insertVisit.run(VISIT_KEYS.map((k) => v[k]));
    })();
    state.retryMs = 0;
  } catch (err) {
    // The disk is full or another process held the database too long: nothing was written (one
    // transaction), so the views and visits wait for the next try, a second later, then two,
    // four, up to a minute. recordView drops what comes once the queue is full.
    state.retryMs = Math.min(60_000, Math.max(FLUSH_MS, state.retryMs * 2));
    state.retryAt = Date.now() + state.retryMs;
    logger.error({ err, views: q.ts.length, retryInMs: state.retryMs }, 'analytics: page views could not be written; trying again later');
    state.queued = q;
    for (const v of dirty) state.dirty.add(v);
    state.timer = setTimeout(flushViews, state.retryMs).unref();
    return false;
  }
  // Visits idle for half an hour are over: only the database keeps them.
  const cutoff = Date.now() - VISIT_IDLE_MS;
  for (const [id, v] of state.visits) if (v.last < cutoff && !state.dirty.has(v)) state.visits.delete(id);
  if (state.dropped > 0) {
    logger.warn({ dropped: state.dropped }, 'analytics: page views dropped (the queue was full)');
    state.dropped = 0;
  }
  return true;
}

/** Page views waiting to be written (for tests and the bench). */
export const queuedViews = () => state.queued.ts.length;
