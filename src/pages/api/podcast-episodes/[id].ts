import { itemChanged } from '#server/http/page-cache.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { assertArtwork } from '#server/services/artwork.ts';
import { deleteEpisode, getEpisodeById, requireVisibleEpisode, updateEpisode } from '#server/services/podcast-episodes.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { EpisodeInputSchema } from '#shared/schemas/podcast-episode.ts';

export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => requireVisibleEpisode(getEpisodeById(params.id), Boolean(user?.isAdmin)));

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: EpisodeInputSchema, changesContent: false }, async ({ params, body }) => {
  await assertArtwork(body.imageUrl);
  const before = getEpisodeById(params.id);
  const episode = updateEpisode(params.id, body);
  itemChanged('podcast', before, episode);
  return episode;
});

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  const before = getEpisodeById(params.id);
  deleteEpisode(params.id);
  itemChanged('podcast', before, null);
  return { success: true };
});
