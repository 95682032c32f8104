import { endpoint } from '#server/app/endpoint.ts';
import { assertArtwork } from '#server/content/artwork.ts';
import { deleteEpisode, getEpisodeById, requireVisibleEpisode, updateEpisode } from '#server/content/podcast-episodes.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';
import { EpisodeInputSchema } from '#shared/schemas/podcast-episode.ts';

export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => requireVisibleEpisode(getEpisodeById(params.id), Boolean(user?.isAdmin)));

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: EpisodeInputSchema, changesContent: false }, async ({ params, body }) => {
  await assertArtwork(body.imageUrl);
  return updateEpisode(params.id, body);
});

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deleteEpisode(params.id);
  return { success: true };
});
