import { endpoint, json } from '@/server/http/endpoint';
import { createPost, listPosts, toSummary } from '@/server/services/blog-posts';
import { PostInputSchema, PostListQuerySchema } from '@/shared/schemas/blog-post';

/** Published posts for everyone; admins get drafts too unless they ask for ?published=true. */
export const GET = endpoint({ auth: 'public', query: PostListQuerySchema }, ({ query, user }) => {
  const posts = listPosts({ includeDrafts: Boolean(user?.isAdmin) && query.published !== 'true' });
  if (query.summary !== 'true') return posts;
  return posts.map(({ content, ...rest }) => ({ ...rest, excerpt: toSummary({ ...rest, content }, 160).excerpt }));
});

export const POST = endpoint({ auth: 'admin', body: PostInputSchema }, ({ body, user }) =>
  json(createPost(body, user.id), 201),
);
