import * as z from 'zod';
import { endpoint, json } from '#server/app/endpoint.ts';
import { PUBLIC_CACHE_CONTROL } from '#server/http/pages/page-cache.ts';
import { BLOG_PAGE_SIZE, searchPublishedPosts } from '#server/content/blog-posts.ts';
import { hasControlChars } from '#shared/format.ts';

const Query = z.object({
  q: z
    .string()
    .max(200, 'Search too long')
    .refine((v) => !hasControlChars(v), 'Search contains characters that are not allowed')
    .optional(),
  category: z
    .string()
    .max(100)
    .refine((v) => !hasControlChars(v), 'Category contains characters that are not allowed')
    .optional(),
  /** A tag's slug: only posts having that tag (an unknown one matches none). */
  tag: z
    .string()
    .max(100)
    .refine((v) => !hasControlChars(v), 'Tag contains characters that are not allowed')
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(BLOG_PAGE_SIZE),
});

/** The public blog search, one page of post summaries at a time. */
export const GET = endpoint({ auth: 'public', query: Query }, ({ query }) => {
  const { items, total } = searchPublishedPosts(query);
  // Public content: answered from the page cache (and by CDNs) until the next write.
  return json({ items, total, page: query.page, pageSize: query.pageSize }, 200, { 'Cache-Control': PUBLIC_CACHE_CONTROL });
});
