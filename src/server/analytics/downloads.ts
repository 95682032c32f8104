// Podcast downloads, counted by the IAB Podcast Measurement rules (v2.2): GET requests only; one
// listener (address and user agent) counts once per episode per UTC day, and only once the
// bytes asked for cover at least a minute of audio (the whole file when it is shorter): a
// request for the first bytes ('bytes=0-1', what players send to learn the length) or any other
// small part is not a download, but the listener's later requests add up to one. An IPv6
// address counts by its /64 (addressKey), and one address counts at most ADDRESS_DOWNLOADS_MAX
// downloads of an episode a day, whatever user agents it sends. Bots and prefetchers are listed
// and never counted. The address and the user agent are not kept: the listener is the day's
// visitor id.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { podcastDownloads } from '#db/schema/analytics.ts';
import { podcastEpisodes } from '#db/schema/content.ts';
import { podcastApp } from './podcast-apps.ts';
import { RAW_DAYS } from './rollup.ts';
import type { EpisodeDownloadsDto } from '#shared/schemas/analytics.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';
import { visitorId } from './visitor.ts';

/**
 * Downloads of one episode counted a day from one address (an IPv4 address or an IPv6 /64): a
 * household's or an office's few apps each count, a client that makes up a new user agent for
 * every request does not count again and again.
 */
export const ADDRESS_DOWNLOADS_MAX = 5;
/** A minute of audio when the episode's length is not known: 128 kbit/s, podcasts' usual MP3 rate. */
const MINUTE_AT_128K = (128_000 / 8) * 60;

/** What is known of an episode's audio file: its byte length and its duration in seconds. */
export interface AudioFacts {
  size: number | null;
  duration: number | null;
}

/** The bytes that make a download: a minute of audio (from the file's length and duration, else at 128 kbit/s), or the whole file when it is shorter. */
export function minuteOfAudio(audio: AudioFacts): number {
  const minute = audio.size && audio.duration && audio.duration > 0 ? Math.ceil((audio.size * 60) / audio.duration) : MINUTE_AT_128K;
  return audio.size ? Math.min(audio.size, minute) : minute;
}

/**
 * The byte ranges a request asks for, as [from, to) pairs: the whole file without a Range (or
 * with one a server ignores); an open end runs to the file's end (unbounded when its length is
 * not known); a suffix (`bytes=-500`) is the file's last bytes, kept below 0 when the length is
 * not known so that suffixes add up among themselves.
 */
export function rangesOf(range: string | null, size: number | null): [number, number][] {
  const end = size ?? Infinity;
  const whole: [number, number][] = [[0, end]];
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(range ?? '');
  if (!m) return whole;
  const out: [number, number][] = [];
  for (const part of m[1]!.split(',')) {
    const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(part);
    if (!r || (r[1] === '' && r[2] === '')) return whole;
    if (r[1] === '') {
      const n = Number(r[2]);
      out.push(size === null ? [-n, 0] : [Math.max(0, size - n), size]);
      continue;
    }
    const from = Number(r[1]);
    const to = r[2] === '' ? end : Math.min(end, Number(r[2]) + 1);
    if (r[2] !== '' && Number(r[2]) < from) return whole;
    if (from < to) out.push([from, to]);
  }
  return out;
}

/** How many distinct bytes the ranges cover together. */
function covered(ranges: [number, number][]): number {
  let total = 0;
  let reach = -Infinity;
  for (const [from, to] of ranges.toSorted((a, b) => a[0] - b[0])) {
    if (to <= reach) continue;
    total += to - Math.max(from, reach);
    reach = to;
  }
  return total;
}

interface DownloadRequest {
  episodeId: number;
  /** The address's key (addressKey: an IPv6 address by its /64). */
  ip: string;
  userAgent: string;
  range: string | null;
}

/**
 * What is kept in memory for the day (all of it forgotten when the day changes or a table grows
 * past its bound): listeners of an episode already counted, or known for bots, or past their
 * address's count (nothing more to write for them today); the byte ranges each other listener
 * asked for so far; the downloads counted per address and episode.
 */
const today = { day: '', settled: new Set<string>(), ranges: new Map<string, [number, number][]>(), perAddress: new Map<string, number>() };
const KEPT_MAX = 100_000;
/** Ranges kept per listener: a player's requests of one listen are a few dozen at most. */
const RANGES_MAX = 64;
const listenerOf = (req: DownloadRequest, now: number) => visitorId(req.ip, req.userAgent, now, 'listen');

function dayOf(now: number): typeof today {
  const day = utcDay(now);
  if (today.day !== day) Object.assign(today, { day, settled: new Set(), ranges: new Map(), perAddress: new Map() });
  return today;
}

function bounded<T extends Set<string> | Map<string, unknown>>(table: T): T {
  if (table.size >= KEPT_MAX) table.clear();
  return table;
}

export function alreadyCounted(req: DownloadRequest, now = Date.now()): boolean {
  return dayOf(now).settled.has(`${req.episodeId}|${listenerOf(req, now)}`);
}

/** Records one GET of an episode's audio; answers whether it counted as a new download. */
export function recordDownload(db: Db, req: DownloadRequest, audio: AudioFacts, now = Date.now()): boolean {
  const kept = dayOf(now);
  const app = podcastApp(req.userAgent);
  const listenerId = listenerOf(req, now);
  const key = `${req.episodeId}|${listenerId}`;
  const fromAddress = `${req.episodeId}|${req.ip}`;
  let counts = false;
  if (app !== 'Bot') {
    // The listener's ranges so far, this one added: a download once they cover a minute of audio.
    const ranges = [...(kept.ranges.get(key) ?? []), ...rangesOf(req.range, audio.size)].slice(-RANGES_MAX);
    const bytes = covered(ranges);
    counts = bytes > 0 && bytes >= minuteOfAudio(audio);
    if (counts) kept.ranges.delete(key);
    else bounded(kept.ranges).set(key, ranges);
  }
  const full = (kept.perAddress.get(fromAddress) ?? 0) >= ADDRESS_DOWNLOADS_MAX;
  if (full) counts = false;
  // Counted, a bot, or an address that counts no more today: later requests of the day change nothing.
  if (counts || app === 'Bot' || full) bounded(kept.settled).add(key);
  const row = { day: utcDay(now), episodeId: req.episodeId, listenerId, app, counted: counts, ts: new Date(now) };
  // Bytes too few first, then enough: the row becomes counted (once); anything after, nothing.
  const done = db
    .insert(podcastDownloads)
    .values(row)
    .onConflictDoUpdate({
      target: [podcastDownloads.day, podcastDownloads.episodeId, podcastDownloads.listenerId],
      set: { counted: true, ts: new Date(now) },
      setWhere: sql`${podcastDownloads.counted} = 0 and ${counts ? sql`1` : sql`0`} = 1`,
    })
    .run();
  const counted = counts && done.changes > 0;
  if (counted) bounded(kept.perAddress).set(fromAddress, (kept.perAddress.get(fromAddress) ?? 0) + 1);
  return counted;
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
