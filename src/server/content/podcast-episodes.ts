// Podcast episodes: queries and rules.
import { and, desc, eq, max, ne } from 'drizzle-orm';
import { podcastEpisodes } from '#db/schema/content.ts';
import { getDb } from '#server/db.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import type { EpisodeDto, EpisodeInput, PublicEpisode } from '#shared/schemas/podcast-episode.ts';
import { nowMs } from '#db/schema/now.ts';
import { itemChanged } from '#server/http/pages/page-cache.ts';
import { publication, withSchedule } from './publishing.ts';
import { sanitizePostHtml } from '#server/html/sanitize.ts';
import type { Same } from '#shared/json.ts';

export type Episode = typeof podcastEpisodes.$inferSelect;
// The API answers rows as they are: the table and EpisodeDto must list the same fields.
void (true satisfies Same<Episode, EpisodeDto>);

/** Episodes, newest episode number first; only published ones unless `includeDrafts`. */
export function listEpisodes({ includeDrafts = false }: { includeDrafts?: boolean } = {}): Episode[] {
  return getDb()
    .select()
    .from(podcastEpisodes)
    .where(includeDrafts ? undefined : eq(podcastEpisodes.isPublished, true))
    .orderBy(desc(podcastEpisodes.episodeNumber), desc(podcastEpisodes.createdAt), desc(podcastEpisodes.id))
    .all();
}

export function getEpisodeById(id: number): Episode | undefined {
  return getDb().select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get();
}

export function getEpisodeBySlug(slug: string): Episode | undefined {
  return getDb().select().from(podcastEpisodes).where(eq(podcastEpisodes.slug, slug)).get();
}

/** The episode a visitor may see: published, or any when an admin asks. Throws 404 otherwise. */
export function requireVisibleEpisode(episode: Episode | undefined, isAdmin: boolean): Episode {
  if (!episode || (!episode.isPublished && !isAdmin)) throw notFound('Episode not found');
  return episode;
}

/** The next episode number: the highest existing plus 1. */
export function nextEpisodeNumber(): number {
  const row = getDb()
    .select({ n: max(podcastEpisodes.episodeNumber) })
    .from(podcastEpisodes)
    .get();
  return (row?.n ?? 0) + 1;
}

function assertSlugFree(slug: string, exceptId?: number): void {
  const clash = getDb()
    .select({ id: podcastEpisodes.id })
    .from(podcastEpisodes)
    .where(exceptId ? and(eq(podcastEpisodes.slug, slug), ne(podcastEpisodes.id, exceptId)) : eq(podcastEpisodes.slug, slug))
    .get();
  if (clash) {
    throw conflict('An episode with this slug already exists', [{ path: ['slug'], message: 'An episode with this slug already exists' }]);
  }
}

/** Show notes are post-like HTML, sanitised the same way; empty ones are none. */
const notes = (html: string | null) => (html ? sanitizePostHtml(html) || null : null);

export function createEpisode(input: EpisodeInput): Episode {
  assertSlugFree(input.slug);
  const episode = withSchedule(
    getDb()
      .insert(podcastEpisodes)
      .values({ ...input, ...publication(input, null), showNotes: notes(input.showNotes), episodeNumber: input.episodeNumber ?? nextEpisodeNumber() })
      .returning()
      .get(),
  );
  itemChanged('podcast', null, episode);
  return episode;
}

export function updateEpisode(id: number, input: EpisodeInput): Episode {
  const existing = getEpisodeById(id);
  if (!existing) throw notFound('Episode not found');
  assertSlugFree(input.slug, id);
  const episode = withSchedule(
    getDb()
      .update(podcastEpisodes)
      .set({ ...input, ...publication(input, existing), showNotes: notes(input.showNotes), updatedAt: nowMs })
      .where(eq(podcastEpisodes.id, id))
      .returning()
      .get(),
  );
  itemChanged('podcast', existing, episode);
  return episode;
}

export function deleteEpisode(id: number): void {
  const deleted = getDb().delete(podcastEpisodes).where(eq(podcastEpisodes.id, id)).returning({ isPublished: podcastEpisodes.isPublished, slug: podcastEpisodes.slug }).get();
  if (!deleted) throw notFound('Episode not found');
  itemChanged('podcast', deleted, null);
}

/** Published episodes for the public podcast page, newest episode number first. */
export function listPublicEpisodes(): PublicEpisode[] {
  return listEpisodes().map((e) => ({
    id: e.id,
    slug: e.slug,
    episodeNumber: e.episodeNumber,
    title: e.title,
    guest: e.guest,
    description: e.description,
    audioUrl: e.audioUrl,
    duration: e.duration,
    createdAt: e.createdAt.toISOString(),
  }));
}
