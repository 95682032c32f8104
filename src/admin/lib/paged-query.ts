// A list paged on the server: the screen keeps its search box and filters, and asks for one page
// at a time with query parameters (page, pageSize, q and the screen's own filters). The answer
// carries the page, the match count and the stat cards' figures, so nothing is counted here.
import { useEffect, useState } from 'react';
import { useQuery, type Query } from '#admin/lib/query.ts';
import type { PageDto } from '#shared/schemas/paging.ts';

const ADMIN_PAGE_SIZE = 50;
/** How long typing pauses before the search is sent: results follow the typing, not every key. */
const SEARCH_DELAY_MS = 100;

/** `value`, once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** `path` with the defined, non-blank parameters as its query string. */
function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && String(value).trim() !== '') query.set(key, String(value).trim());
  const text = query.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

type Filters = Record<string, string | number | undefined>;

/** The call for one page: the one place its parameters are put in order, so an early call and the screen's match. */
const pageUrl = (path: string, filters: Filters, q: string, page: number, pageSize: number): string => withQuery(path, { ...filters, q, page, pageSize });

/** The first page a list screen asks for, before any search: what the app fetches while the screen's code loads. */
export const firstPageUrl = (path: string, filters: Filters, pageSize = ADMIN_PAGE_SIZE): string => pageUrl(path, filters, '', 1, pageSize);

export interface PagedList<T, S> extends Query<PageDto<T, S>> {
  /** The page's rows (none until the first answer). */
  items: T[];
  page: number;
  setPage: (page: number) => void;
}

/**
 * One page of `path`, searched with `search` (sent after a pause in typing) and filtered by
 * `filters`; a new search or filter starts again at page 1.
 */
export function usePagedList<T, S>(path: string, search: string, filters: Filters, errorTitle: string, pageSize = ADMIN_PAGE_SIZE): PagedList<T, S> {
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const key = `${q}\n${JSON.stringify(filters)}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  // A page number belongs to the search and filters it was chosen under: new ones start at page 1.
  if (paging.key !== key) setPaging({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  // A string: useQuery asks again only when it changes.
  const query = useQuery<PageDto<T, S>>(pageUrl(path, filters, q, page, pageSize), errorTitle);
  const { data } = query;
  // A page emptied by deletes (the last rows of the last page) steps back to the last page there is.
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1) setPaging({ key, page: Math.max(1, Math.ceil(data.total / pageSize)) });
  }, [data, page, key, pageSize]);
  return { ...query, items: data?.items ?? [], page, setPage: (p: number) => setPaging({ key, page: p }) };
}
