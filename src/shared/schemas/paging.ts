// Admin lists paged on the server: the query every list takes, and the shape of a page.
import * as z from 'zod';

/** page (from 1), pageSize (up to 200) and a search text; a list given any of them answers one page. */
export const PageQuerySchema = z.object({
  q: z.string().max(200, 'q must be at most 200 characters').optional(),
  page: z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1, 'page must be at least 1').max(100_000).optional(),
  pageSize: z.coerce.number({ error: 'pageSize must be a number' }).int('pageSize must be a whole number').min(1, 'pageSize must be at least 1').max(200, 'pageSize must be at most 200').optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export interface PageDto<T, S> {
  items: T[];
  /** How many match the search and filter (the whole list without them). */
  total: number;
  page: number;
  pageSize: number;
  /** The stat cards' figures, over the whole list. */
  stats: S;
}

/** Whether a list call asked for a page (any paging, search or filter parameter), rather than the whole list. */
export const asksForPage = (query: object): boolean => Object.values(query).some((v) => v !== undefined);
