import { endpoint } from '@/server/http/endpoint';
import { notFound } from '@/server/http/errors';
import { deleteEpisode, getEpisodeById, updateEpisode } from '@/server/services/podcast-episodes';
import { IdParamsSchema } from '@/shared/schemas/common';
import { EpisodeInputSchema } from '@/shared/schemas/podcast-episode';

export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => {
  const episode = getEpisodeById(params.id);
  if (!episode || (!episode.isPublished && !user?.isAdmin)) throw notFound('Episode not found');
  return episode;
});

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: EpisodeInputSchema }, ({ params, body }) =>
  updateEpisode(params.id, body),
);

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema }, ({ params }) => {
  deleteEpisode(params.id);
  return { success: true };
});
