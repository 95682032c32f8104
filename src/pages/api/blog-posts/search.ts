import * as z from 'zod';
import { endpoint } from '@/server/http/endpoint';
import { BLOG_PAGE_SIZE, searchPublishedPosts } from '@/server/services/blog-posts';

const Query = z.object({
  q: z.string().max(200, 'Search too long').optional(),
  category: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(BLOG_PAGE_SIZE),
});

/** The public blog search, one page of post summaries at a time. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query }) => {
  const { items, total } = searchPublishedPosts(query);
  return { items, total, page: query.page, pageSize: query.pageSize };
});
