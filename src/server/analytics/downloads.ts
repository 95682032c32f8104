// Podcast downloads, counted by the IAB Podcast Measurement rules (v2.2) as OP3 and oDL apply
// them: GET requests only; one listener (IP address and user agent) counts once per episode per
// UTC day; a request for just the first bytes ('bytes=0-1', what players send to learn the
// length) is not a download, but a later, larger request of the same listener is; bots and
// prefetchers are listed and never counted. The address and the user agent are not kept: the
// listener is the day's visitor id.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { podcastDownloads } from '#db/schema/analytics.ts';
import { podcastEpisodes } from '#db/schema/content.ts';
import { podcastApp } from './podcast-apps.ts';
import { dayOf, visitorId } from './visitor.ts';

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
  return settled.day === dayOf(now) && settled.keys.has(keyOf(req, now));
}

function settle(req: DownloadRequest, now: number): void {
  if (settled.day !== dayOf(now) || settled.keys.size >= SETTLED_MAX) settled.keys = new Set();
  settled.day = dayOf(now);
  settled.keys.add(keyOf(req, now));
}

/** Records one request for an episode's audio; answers whether it counted as a new download. */
export function recordDownload(db: Db, req: DownloadRequest, now = Date.now()): boolean {
  const app = podcastApp(req.userAgent);
  const counts = app !== 'Bot' && !isProbe(req.range);
  const listenerId = visitorId(req.ip, req.userAgent, now, 'listen');
  // Once counted (or known for a bot), later requests of the day change nothing: remembered in memory.
  if (counts || app === 'Bot') settle(req, now);
  const row = { day: dayOf(now), episodeId: req.episodeId, listenerId, app, counted: counts, ts: new Date(now) };
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

export interface EpisodeDownloads {
  episodeId: number;
  title: string;
  publishedAt: Date | null;
  /** In the range asked for. */
  downloads: number;
  /** In the first 7 and 30 days after it was published, and ever. */
  first7: number;
  first30: number;
  allTime: number;
  apps: { app: string; downloads: number }[];
  /** Requests from bots and prefetchers (not counted). */
  bots: number;
}

/** Downloads per episode: in the range, its first 7 and 30 days, all time, and by app. */
export function downloadsReport(db: Db, fromDay: string, toDay: string): EpisodeDownloads[] {
  const episodes = db.select({ id: podcastEpisodes.id, title: podcastEpisodes.title, publishedAt: podcastEpisodes.publishedAt }).from(podcastEpisodes).all();
  const counted = (extra = sql`1`) =>
    new Map(db.all<{ id: number; n: number }>(sql`select episode_id as id, count(*) as n from podcast_downloads where counted = 1 and ${extra} group by episode_id`).map((r) => [r.id, r.n]));
  const inRange = counted(sql`day >= ${fromDay} and day <= ${toDay}`);
  const allTime = counted();
  const firstDays = (days: number) =>
    new Map(
      db
        .all<{ id: number; n: number }>(
          sql`select d.episode_id as id, count(*) as n from podcast_downloads d join podcast_episodes e on e.id = d.episode_id
              where d.counted = 1 and e.published_at is not null and d.ts < e.published_at + ${days * 86_400_000} group by d.episode_id`,
        )
        .map((r) => [r.id, r.n]),
    );
  const first7 = firstDays(7);
  const first30 = firstDays(30);
  const apps = db.all<{ id: number; app: string; n: number }>(
    sql`select episode_id as id, app, count(*) as n from podcast_downloads where day >= ${fromDay} and day <= ${toDay} and counted = 1 group by episode_id, app order by n desc`,
  );
  const bots = new Map(
    db
      .select({ id: podcastDownloads.episodeId, n: sql<number>`count(*)` })
      .from(podcastDownloads)
      .where(and(eq(podcastDownloads.app, 'Bot'), gte(podcastDownloads.day, fromDay), lt(podcastDownloads.day, `${toDay}~`)))
      .groupBy(podcastDownloads.episodeId)
      .all()
      .map((r) => [r.id, r.n]),
  );
  return episodes
    .map((e) => ({
      episodeId: e.id,
      title: e.title,
      publishedAt: e.publishedAt,
      downloads: inRange.get(e.id) ?? 0,
      first7: first7.get(e.id) ?? 0,
      first30: first30.get(e.id) ?? 0,
      allTime: allTime.get(e.id) ?? 0,
      apps: apps.filter((a) => a.id === e.id).map((a) => ({ app: a.app, downloads: a.n })),
      bots: bots.get(e.id) ?? 0,
    }))
    .sort((a, b) => b.allTime - a.allTime || a.title.localeCompare(b.title));
}
