// What the admin lists paged on the server share: the search condition and the window.
import { or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * Any of `columns` contains `q`, case-insensitively in any alphabet; LIKE's own characters are
 * taken literally. Undefined for a blank search.
 */
export function containsText(q: string | undefined, ...columns: SQLWrapper[]): SQL | undefined {
  const term = (q ?? '').trim().toLowerCase();
  if (!term) return undefined;
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // SQLite's own lower() is enough for a term in ASCII (and much faster than a JavaScript function per row).
  const lower = /^[\x20-\x7e]*$/.test(term) ? sql.raw('lower') : sql.raw('unicode_lower');
  return or(...columns.map((c) => sql`${lower}(coalesce(${c}, '')) like ${like} escape '\\'`));
}

/** How many rows meet `condition` (a stat card), 0 for an empty table. */
export const countIf = (condition: SQLWrapper): SQL<number> => sql<number>`coalesce(sum(${condition}), 0)`;

/** LIMIT and OFFSET of a page. */
export const windowOf = ({ page = 1, pageSize = DEFAULT_PAGE_SIZE }: { page?: number | undefined; pageSize?: number | undefined }) => ({ page, pageSize, offset: (page - 1) * pageSize });
