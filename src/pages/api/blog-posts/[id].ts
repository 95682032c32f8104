import { itemChanged } from '#server/http/page-cache.ts';
import { endpoint } from '#server/http/endpoint.ts';
import { deletePost, getPostById, requireVisiblePost, updatePost, withTags } from '#server/services/blog-posts.ts';
import { PostInputSchema } from '#shared/schemas/blog-post.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => withTags(requireVisiblePost(getPostById(params.id), Boolean(user?.isAdmin))));

export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: PostInputSchema, changesContent: false }, ({ params, body }) => {
  const before = getPostById(params.id);
  const post = updatePost(params.id, body);
  itemChanged('posts', before, post);
  return withTags(post);
});

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  const before = getPostById(params.id);
  deletePost(params.id);
  itemChanged('posts', before, null);
  return { success: true };
});
