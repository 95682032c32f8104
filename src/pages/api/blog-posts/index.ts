import { endpoint, json } from '#server/app/endpoint.ts';
import { countPosts, createPost, listPosts, pagePosts, toListItem, withTags } from '#server/content/blog-posts.ts';
import { PUBLIC_POSTS_DEFAULT, PostInputSchema, PostListQuerySchema } from '#shared/schemas/blog-post.ts';
import { asksForPage } from '#shared/schemas/paging.ts';

/**
 * Published posts for everyone, newest first, one page at a time (?limit=, default 20, at most
 * 100; ?offset=), with the total in X-Total-Count. Admins get drafts too unless they ask for
 * ?published=true, and the whole list when they give no limit. Given any of page, pageSize,
 * q or status, admins get one page of the admin list with its stat cards (PostPageDto);
 * anyone else gets the public list, those parameters ignored.
 */
export const GET = endpoint({ auth: 'public', query: PostListQuerySchema }, ({ query, user }) => {
  const isAdmin = Boolean(user?.isAdmin);
  const { page, pageSize, q, status } = query;
  const paging = { page, pageSize, q, status };
  // Only an admin's list is paged (it shows and counts drafts); anyone else gets the public list, as before.
  if (isAdmin && asksForPage(paging)) return pagePosts(paging);
  const includeDrafts = isAdmin && query.published !== 'true';
  const limit = query.limit ?? (isAdmin ? undefined : PUBLIC_POSTS_DEFAULT);
  const posts = listPosts({ includeDrafts, limit, offset: query.offset });
  const headers = { 'Cache-Control': 'no-store', 'X-Total-Count': String(countPosts({ includeDrafts })) };
  if (query.summary !== 'true') return Response.json(posts, { headers });
  return Response.json(posts.map(toListItem), { headers });
});

// createPost tells the page cache what changed itself.
export const POST = endpoint({ auth: 'admin', body: PostInputSchema, changesContent: false }, ({ body, user }) => json(withTags(createPost(body, user.id)), 201));
