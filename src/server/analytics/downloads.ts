// Podcast downloads, counted by the IAB Podcast Measurement rules (v2.2) as OP3 and oDL apply
// them: GET requests only; one listener (IP address and user agent) counts once per episode per
// UTC day; a request for just the first bytes ('bytes=0-1', what players send to learn the
// length) is not a download, but a later, larger request of the same listener is; bots and
// prefetchers are listed and never counted. The address and the user agent are not kept: the
// listener is the day's visitor id.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { podcastDownloads } from '#db/schema/analytics.ts';
import { podcastEpisodes } from '#db/schema/content.ts';
import { podcastApp } from './podcast-apps.ts';
import { RAW_DAYS } from './rollup.ts';
import type { EpisodeDownloadsDto } from '#shared/schemas/analytics.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';
import { visitorId } from './visitor.ts';

/** A Range asking for at most the first two bytes. */
export function isProbe(range: string | null): boolean {
  const m = /^bytes=(\d+)-(\d*)$/.exec((range ?? '').trim());
  return Boolean(m && m[2] !== '' && Number(m[2]) - Number(m[1]) < 2);
}

interface DownloadRequest {
  episodeId: number;
  ip: string;
  userAgent: string;
  range: string | null;
}

/** Listener, episode and day already counted (or a bot's, listed): nothing more to write for them today. */
const settled = { day: '', keys: new Set<string>() };
const SETTLED_MAX = 100_000;
const keyOf = (req: DownloadRequest, now: number) => `${req.episodeId}|${visitorId(req.ip, req.userAgent, now, 'listen')}`;

export function alreadyCounted(req: DownloadRequest, now = Date.now()): boolean {
  return settled.day === utcDay(now) && settled.keys.has(keyOf(req, now));
}

function settle(req: DownloadRequest, now: number): void {
  if (settled.day !== utcDay(now) || settled.keys.size >= SETTLED_MAX) settled.keys = new Set();
  settled.day = utcDay(now);
  settled.keys.add(keyOf(req, now));
}

/** Records one request for an episode's audio; answers whether it counted as a new download. */
export function recordDownload(db: Db, req: DownloadRequest, now = Date.now()): boolean {
  const app = podcastApp(req.userAgent);
  const counts = app !== 'Bot' && !isProbe(req.range);
  const listenerId = visitorId(req.ip, req.userAgent, now, 'listen');
  // Once counted (or known for a bot), later requests of the day change nothing: remembered in memory.
  if (counts || app === 'Bot') settle(req, now);
  const row = { day: utcDay(now), episodeId: req.episodeId, listenerId, app, counted: counts, ts: new Date(now) };
  // A probe first, then the real download: the row becomes counted (once); anything after, nothing.
  const done = db
    .insert(podcastDownloads)
    .values(row)
    .onConflictDoUpdate({
      target: [podcastDownloads.day, podcastDownloads.episodeId, podcastDownloads.listenerId],
      set: { counted: true, ts: new Date(now) },
      setWhere: sql`${podcastDownloads.counted} = 0 and ${counts ? sql`1` : sql`0`} = 1`,
    })
    .run();
  return counts && done.changes > 0;
}

// Every listener of a day is kept 30 days, then the day is rolled up to its counts per episode
// and app (podcast_downloads_daily, kept) and its listeners go: a day's figures are in one of the
// two tables, never both. The first 7 and 30 days of an episode are counted from its publication
// date when its days are rolled up: an episode published again later keeps those days' counts.
const firstDays = (days: number) => sql`d.counted = 1 and e.published_at is not null and d.ts < e.published_at + ${days * DAY_MS}`;

/**
 * Rolls up the oldest day of downloads more than RAW_DAYS past and deletes its listeners, in one
 * transaction; answers how many listener rows went (0: no such day is left). A day at a time, so
 * that a backlog (the first run on a site with years of downloads) never holds up the site's
 * answers for more than one day's rows.
 */
export function rollUpDownloads(db: Db, now = Date.now()): number {
  const before = utcDay(now - RAW_DAYS * DAY_MS);
  const day = db.get<{ day: string | null }>(sql`select min(day) as day from podcast_downloads where day < ${before}`).day;
  if (!day) return 0;
  return db.transaction((tx) => {
    // Added to what the day already has, should a row of it be written after its roll-up.
    tx.run(sql`insert into podcast_downloads_daily (day, episode_id, app, listeners, downloads, first7, first30)
      select d.day, d.episode_id, d.app, count(*), sum(d.counted = 1), sum(${firstDays(7)}), sum(${firstDays(30)})
        from podcast_downloads d left join podcast_episodes e on e.id = d.episode_id where d.day = ${day} group by d.episode_id, d.app
      on conflict (day, episode_id, app) do update set listeners = listeners + excluded.listeners, downloads = downloads + excluded.downloads,
        first7 = first7 + excluded.first7, first30 = first30 + excluded.first30`);
    return tx.delete(podcastDownloads).where(eq(podcastDownloads.day, day)).run().changes;
  });
}

/** Downloads per episode: in the range, its first 7 and 30 days, all time, and by app. */
export function downloadsReport(db: Db, fromDay: string, toDay: string): EpisodeDownloadsDto[] {
  const episodes = db.select({ id: podcastEpisodes.id, title: podcastEpisodes.title, publishedAt: podcastEpisodes.publishedAt }).from(podcastEpisodes).all();
  // Every figure of every episode in one pass over the listeners of the last 30 days and the days rolled up before them.
  const inRange = sql`day >= ${fromDay} and day <= ${toDay}`;
  const all = sql`select d.episode_id as id, d.day as day, d.app as app, d.counted = 1 as downloads, d.app = 'Bot' as bots, ${firstDays(7)} as first7, ${firstDays(30)} as first30
      from podcast_downloads d left join podcast_episodes e on e.id = d.episode_id
    union all
    select episode_id, day, app, downloads, case when app = 'Bot' then listeners else 0 end, first7, first30 from podcast_downloads_daily`;
  const figures = new Map(
    db
      .all<{ id: number; downloads: number; allTime: number; first7: number; first30: number; bots: number }>(
        sql`select id, sum(case when ${inRange} then downloads else 0 end) as downloads, sum(downloads) as allTime, sum(first7) as first7, sum(first30) as first30,
              sum(case when ${inRange} then bots else 0 end) as bots
            from (${all}) group by id`,
      )
      .map((r) => [r.id, r]),
  );
  const apps = db.all<{ id: number; app: string; n: number }>(sql`select id, app, sum(downloads) as n from (${all}) where ${inRange} group by id, app having n > 0 order by n desc`);
  return episodes
    .map((e) => ({
      episodeId: e.id,
      title: e.title,
      publishedAt: e.publishedAt,
      downloads: figures.get(e.id)?.downloads ?? 0,
      first7: figures.get(e.id)?.first7 ?? 0,
      first30: figures.get(e.id)?.first30 ?? 0,
      allTime: figures.get(e.id)?.allTime ?? 0,
      apps: apps.filter((a) => a.id === e.id).map((a) => ({ app: a.app, downloads: a.n })),
      bots: figures.get(e.id)?.bots ?? 0,
    }))
    .sort((a, b) => b.allTime - a.allTime || a.title.localeCompare(b.title));
}
