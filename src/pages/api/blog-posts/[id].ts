import { endpoint } from '#server/app/endpoint.ts';
import { deletePost, getPostById, requireVisiblePost, updatePost, withTags } from '#server/content/blog-posts.ts';
import { PostInputSchema } from '#shared/schemas/blog-post.ts';
import { IdParamsSchema } from '#shared/schemas/common.ts';

export const GET = endpoint({ auth: 'public', params: IdParamsSchema }, ({ params, user }) => withTags(requireVisiblePost(getPostById(params.id), Boolean(user?.isAdmin))));

// The post services tell the page cache what changed themselves.
export const PUT = endpoint({ auth: 'admin', params: IdParamsSchema, body: PostInputSchema, changesContent: false }, ({ params, body }) => withTags(updatePost(params.id, body)));

export const DELETE = endpoint({ auth: 'admin', params: IdParamsSchema, changesContent: false }, ({ params }) => {
  deletePost(params.id);
  return { success: true };
});
