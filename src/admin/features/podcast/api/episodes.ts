// Podcast episode calls for the admin, beside the shared schema that checks their input.
import { resourceApi } from '#admin/lib/resource-api.ts';
import { API } from '#shared/api-paths.ts';
import type { Json } from '#shared/json.ts';
import { EpisodeInputSchema, type EpisodeDto, type EpisodeInput } from '#shared/schemas/podcast-episode.ts';

export { EpisodeInputSchema, type EpisodeInput };

/** An episode as the API answers it (dates as ISO strings). */
export type Episode = Json<EpisodeDto>;

/** Every episode (drafts included, highest episode number first) and the writes. */
const api = resourceApi<Episode, EpisodeInput>(API.episodes, API.episode, { plural: 'podcast episodes', singular: 'podcast episode' });
export const { useList: useEpisodes, create: createEpisode, update: updateEpisode, remove: deleteEpisode } = api;
