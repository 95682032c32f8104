// An episode's audio, as the feed's enclosures and the site's players link it: the download is
// counted (by the IAB's rules, src/server/analytics/downloads.ts) and the request goes on to the
// file itself, which serves byte ranges. Counting never stops anyone listening.
import type { APIRoute } from 'astro';
import { alreadyCounted, recordDownload } from '#server/analytics/downloads.ts';
import { getDb } from '#server/db.ts';
import { env } from '#server/env.ts';
import { LIMITS, clientKey, hit } from '#server/http/rate-limit.ts';
import { logger } from '#server/log.ts';
import { audioFileSize } from '#server/content/feeds.ts';
import { getEpisodeById } from '#server/content/podcast-episodes.ts';

const notFound = () => new Response('Episode not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

export const GET: APIRoute = (context) => {
  const id = /^[1-9]\d{0,9}$/.test(context.params.id ?? '') ? Number(context.params.id) : null;
  const episode = id ? getEpisodeById(id) : undefined;
  const published = episode?.isPublished && (episode.publishedAt === null || episode.publishedAt.getTime() <= Date.now());
  if (!episode?.audioUrl || !published) return notFound();
  const to = new URL(episode.audioUrl, env().SITE_URL).href;
  if (context.request.method === 'GET') {
    try {
      // Keyed as every per-address count is: an IPv6 listener by their /64.
      const ip = clientKey(context);
      const download = { episodeId: episode.id, ip, userAgent: context.request.headers.get('user-agent') ?? '', range: context.request.headers.get('range') };
      // A player's many range requests of one listen are neither limited nor written again.
      if (!alreadyCounted(download)) {
        hit(LIMITS.podcastDownload, ip);
        recordDownload(getDb(), download, { size: audioFileSize(episode.audioUrl), duration: episode.duration });
      }
    } catch (err) {
      // Over the limit, or the database busy: the listener still gets the episode.
      if ((err as { status?: number }).status !== 429) logger.warn({ err }, 'podcast download not counted');
    }
  }
  return new Response(null, { status: 302, headers: { Location: to, 'Cache-Control': 'no-store, private' } });
};

export const HEAD: APIRoute = GET;
