import { endpoint, json } from '@/server/http/endpoint';
import { createPost, listPosts } from '@/server/services/blog-posts';
import { PostInputSchema, PostListQuerySchema } from '@/shared/schemas/blog-post';

/** Published posts for everyone; admins get drafts too unless they ask for ?published=true. */
export const GET = endpoint({ auth: 'public', query: PostListQuerySchema }, ({ query, user }) =>
  listPosts({ includeDrafts: Boolean(user?.isAdmin) && query.published !== 'true' }),
);

export const POST = endpoint({ auth: 'admin', body: PostInputSchema }, ({ body, user }) =>
  json(createPost(body, user.id), 201),
);
