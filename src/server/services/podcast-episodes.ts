// Podcast episodes: queries and rules.
import { and, desc, eq, max, ne } from 'drizzle-orm';
import { podcastEpisodes } from '../../../db/schema/content.ts';
import { getDb } from '../context.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { EpisodeInput } from '../../shared/schemas/podcast-episode.ts';
import { nowMs } from '../../../db/schema/now.ts';

export type Episode = typeof podcastEpisodes.$inferSelect;

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

/** The next episode number: the highest existing plus 1. */
export function nextEpisodeNumber(): number {
  const row = getDb().select({ n: max(podcastEpisodes.episodeNumber) }).from(podcastEpisodes).get();
  return (row?.n ?? 0) + 1;
}

function assertSlugFree(slug: string, exceptId?: number): void {
  const clash = getDb()
    .select({ id: podcastEpisodes.id })
    .from(podcastEpisodes)
    .where(exceptId ? and(eq(podcastEpisodes.slug, slug), ne(podcastEpisodes.id, exceptId)) : eq(podcastEpisodes.slug, slug))
    .get();
  if (clash) {
    throw conflict('An episode with this slug already exists', [
      { path: ['slug'], message: 'An episode with this slug already exists' },
    ]);
  }
}

export function createEpisode(input: EpisodeInput): Episode {
  assertSlugFree(input.slug);
  return getDb()
    .insert(podcastEpisodes)
    .values({ ...input, episodeNumber: input.episodeNumber ?? nextEpisodeNumber() })
    .returning()
    .get();
}

export function updateEpisode(id: number, input: EpisodeInput): Episode {
  if (!getEpisodeById(id)) throw notFound('Episode not found');
  assertSlugFree(input.slug, id);
  return getDb()
    .update(podcastEpisodes)
    .set({ ...input, updatedAt: nowMs })
    .where(eq(podcastEpisodes.id, id))
    .returning()
    .get();
}

export function deleteEpisode(id: number): void {
  const result = getDb().delete(podcastEpisodes).where(eq(podcastEpisodes.id, id)).run();
  if (result.changes === 0) throw notFound('Episode not found');
}

/** A published episode as the public pages hand it to the browser: no drafts, dates as ISO strings. */
export interface PublicEpisode {
  id: number;
  episodeNumber: number | null;
  title: string;
  guest: string | null;
  description: string | null;
  audioUrl: string | null;
  duration: number | null;
  createdAt: string;
}

/** Published episodes for the public podcast page, newest episode number first. */
export function listPublicEpisodes(): PublicEpisode[] {
  return listEpisodes().map((e) => ({
    id: e.id,
    episodeNumber: e.episodeNumber,
    title: e.title,
    guest: e.guest,
    description: e.description,
    audioUrl: e.audioUrl,
    duration: e.duration,
    createdAt: e.createdAt.toISOString(),
  }));
}
