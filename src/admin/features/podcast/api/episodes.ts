// Podcast episode calls for the admin, beside the shared schema that checks their input.
import { mutate, useQuery } from '#admin/lib/query.ts';
import { EpisodeInputSchema, type EpisodeInput } from '#shared/schemas/podcast-episode.ts';

export { EpisodeInputSchema, type EpisodeInput };

/** An episode as the API answers it (dates as ISO strings). */
export interface Episode {
  id: number;
  title: string;
  slug: string;
  description: string | null;
  audioUrl: string | null;
  /** Seconds. */
  duration: number | null;
  episodeNumber: number | null;
  guest: string | null;
  isPublished: boolean;
  createdAt: string;
  updatedAt: string;
}

const PATH = '/api/podcast-episodes';

/** Every episode, drafts included, highest episode number first. */
export const useEpisodes = () => useQuery<Episode[]>(PATH, 'Failed to fetch podcast episodes');

export const createEpisode = (input: EpisodeInput) => mutate<Episode>('POST', PATH, input, { title: 'Error', description: 'Failed to create podcast episode. Please try again.' });

export const updateEpisode = (id: number, input: EpisodeInput) =>
  mutate<Episode>('PUT', `${PATH}/${id}`, input, { title: 'Error', description: 'Failed to update podcast episode. Please try again.' });

export const deleteEpisode = (id: number) =>
  mutate<{ success: true }>('DELETE', `${PATH}/${id}`, undefined, { title: 'Error', description: 'Failed to delete the podcast episode. Please try again.' });
