// First-party analytics, without personal data: page views (kept 30 days), the visits they
// make up, each day's figures (kept), the goals reached and podcast downloads (per listener for
// 30 days, then per day, episode and app). A visitor is a SHA-256 of the day's secret salt (kept
// in memory only), the site, the IP address and the user agent: the address and the user agent
// are never stored, and once the day is over no id can be made again from them.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const analyticsEvents = sqliteTable(
  'analytics_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts', { mode: 'timestamp_ms' }).notNull(),
    /** The daily visitor id (hex) and the visit this view belongs to. */
    visitorId: text('visitor_id').notNull(),
    visitId: text('visit_id').notNull(),
    /** The page's path (no query string: it can carry tokens). */
    path: text('path').notNull(),
  },
  // By time, holding the visitor and the path too: a day's figures are read from the index alone.
  // Nothing is looked up by visit: an index of it cost each view a write to a page anywhere in a
  // month of ids, more than the row itself.
  (t) => [index('analytics_events_ts_cover_idx').on(t.ts, t.visitorId, t.path)],
);

/** Page views of one visitor with no more than 30 minutes between them. */
export const analyticsVisits = sqliteTable(
  'analytics_visits',
  {
    id: text('id').primaryKey(),
    visitorId: text('visitor_id').notNull(),
    start: integer('start', { mode: 'timestamp_ms' }).notNull(),
    last: integer('last', { mode: 'timestamp_ms' }).notNull(),
    pageviews: integer('pageviews').notNull(),
    entryPath: text('entry_path').notNull(),
    exitPath: text('exit_path').notNull(),
    /** The referring site's host ('' for none), and the campaign tags of the entry page. */
    referrer: text('referrer').notNull().default(''),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    /** Where the visit came from: the UTM source, else the referrer, else 'Direct'. */
    source: text('source').notNull(),
    /** From the screen width: Desktop, Tablet or Mobile. */
    device: text('device').notNull(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    /** ISO country code from an offline database when one is configured; '' otherwise. */
    country: text('country').notNull().default(''),
  },
  // By when a visit was last seen: the visits still going after a restart, and the hourly pruning.
  // Its entries move to the end as a visit goes on, where the newest are: a batch of page views
  // rewrites a few pages of it, not one page per visitor as an index by visitor id did.
  (t) => [index('analytics_visits_start_idx').on(t.start), index('analytics_visits_last_idx').on(t.last)],
);

export const GOALS = ['newsletter_confirmed', 'purchase', 'booking'] as const;
export type Goal = (typeof GOALS)[number];

/** A goal reached, counted on the server where it happens, with the source of the visit that led to it. */
export const analyticsGoals = sqliteTable(
  'analytics_goals',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts', { mode: 'timestamp_ms' }).notNull(),
    goal: text('goal', { enum: GOALS }).notNull(),
    /** The source of the visit that led to it (never the visit itself: a goal can name a person). */
    source: text('source').notNull().default('Direct'),
    /** Cents, for a purchase. */
    value: integer('value').notNull().default(0),
  },
  (t) => [index('analytics_goals_ts_idx').on(t.ts)],
);

/**
 * The source of the visit a goal in progress started from (a checkout, a sign-up waiting for its confirmation),
 * by what it will be known as when reached ('order:pi_…', 'subscriber:12', 'package:7'). Taken
 * when the goal is counted; left ones go with the raw events after 30 days.
 */
export const analyticsAttributions = sqliteTable(
  'analytics_attributions',
  { ref: text('ref').primaryKey(), source: text('source').notNull(), createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull() },
  (t) => [index('analytics_attributions_created_idx').on(t.createdAt)],
);

/**
 * Podcast downloads by the IAB's rules: one row per listener (the day's visitor id of an IP
 * address and user agent), episode and UTC day. `counted` is false for a probe of the first
 * bytes (a later, larger request of the same listener makes it count) and for bots and
 * prefetchers, which are kept as such.
 */
export const podcastDownloads = sqliteTable(
  'podcast_downloads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    day: text('day').notNull(),
    episodeId: integer('episode_id').notNull(),
    listenerId: text('listener_id').notNull(),
    /** The podcast app (or browser) that asked, from its user agent; 'Bot' for bots and prefetchers. */
    app: text('app').notNull(),
    counted: integer('counted', { mode: 'boolean' }).notNull(),
    ts: integer('ts', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('podcast_downloads_unique').on(t.day, t.episodeId, t.listenerId),
    index('podcast_downloads_episode_idx').on(t.episodeId, t.day),
    index('podcast_downloads_day_idx').on(t.day, t.counted),
  ],
);

/**
 * Podcast downloads of days more than 30 days past, per UTC day, episode and app, rolled up from
 * podcast_downloads (whose rows of those days then go): kept forever. `listeners` counts every
 * listener that asked (probes and bots too); `downloads` those that counted; `first7` and
 * `first30` those that counted within 7 and 30 days of the episode's publication.
 */
export const podcastDownloadsDaily = sqliteTable(
  'podcast_downloads_daily',
  {
    day: text('day').notNull(),
    episodeId: integer('episode_id').notNull(),
    app: text('app').notNull(),
    listeners: integer('listeners').notNull().default(0),
    downloads: integer('downloads').notNull().default(0),
    first7: integer('first7').notNull().default(0),
    first30: integer('first30').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.episodeId, t.app] }), index('podcast_downloads_daily_episode_idx').on(t.episodeId, t.day)],
);

/**
 * Each past UTC day's figures, rolled up from its page views and visits (kept forever, while
 * the raw rows go after 30 days). `kind` says what `key` is: 'total' (key ''), 'page', 'entry',
 * 'source', 'campaign', 'device' or 'browser'. A visitor is counted once per day and key.
 */
export const analyticsDaily = sqliteTable(
  'analytics_daily',
  {
    day: text('day').notNull(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    visitors: integer('visitors').notNull().default(0),
    pageviews: integer('pageviews').notNull().default(0),
    visits: integer('visits').notNull().default(0),
    bounces: integer('bounces').notNull().default(0),
    /** The visits' total length, in milliseconds. */
    duration: integer('duration').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.key] }), index('analytics_daily_kind_idx').on(t.kind, t.day)],
);
