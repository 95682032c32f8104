import { endpoint, json } from '#server/app/endpoint.ts';
import { assertArtwork } from '#server/content/artwork.ts';
import { createEpisode, listEpisodes } from '#server/content/podcast-episodes.ts';
import { EpisodeInputSchema, EpisodeListQuerySchema } from '#shared/schemas/podcast-episode.ts';

/** Published episodes for everyone; admins get drafts too unless they ask for ?published=true. */
export const GET = endpoint({ auth: 'public', query: EpisodeListQuerySchema }, ({ query, user }) => listEpisodes({ includeDrafts: Boolean(user?.isAdmin) && query.published !== 'true' }));

export const POST = endpoint({ auth: 'admin', body: EpisodeInputSchema, changesContent: false }, async ({ body }) => {
  await assertArtwork(body.imageUrl);
  return json(createEpisode(body), 201);
});
