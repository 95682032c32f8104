// Old addresses that answer 301 to a page of this site: imported WordPress permalinks and
// redirects the owner adds. They are looked up only for a path that would otherwise be a 404
// (and for WordPress's '/?p=123' form), so pages that exist never pay for them.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { redirects } from '#db/schema/content.ts';

/** WordPress's query permalinks: a post (?p=), a page (?page_id=), an attachment. */
const QUERY_FORMS = ['p', 'page_id', 'attachment_id'] as const;

/**
 * The key an address is stored and looked up under: its path, lower-cased, without a trailing
 * slash; for WordPress's query form, '/?p=123'. Other query parameters do not count. Accepts a
 * full URL (a WordPress `<link>`) or a path. Null for what cannot be an address of ours.
 */
export function redirectKey(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address, 'http://localhost');
  } catch {
    return null;
  }
  for (const name of QUERY_FORMS) {
    const value = url.searchParams.get(name);
    if (value && /^\d{1,12}$/.test(value)) return `/?${name}=${Number(value)}`;
  }
  let path = url.pathname.toLowerCase();
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return path.length > 500 ? null : path;
}

/** Whether a request could be WordPress's query form ('/?p=123'), which is not a 404 here. */
export const isQueryForm = (url: URL): boolean => url.pathname === '/' && QUERY_FORMS.some((name) => url.searchParams.has(name));

/** Where `url` moved to, counting the hit; null when it is no redirect. */
export function followRedirect(db: Db, url: URL): string | null {
  const key = redirectKey(url.pathname + url.search);
  if (!key) return null;
  const row = db.select({ id: redirects.id, toPath: redirects.toPath }).from(redirects).where(eq(redirects.fromPath, key)).get();
  if (!row) return null;
  db.update(redirects)
    .set({ hits: sql`${redirects.hits} + 1`, lastHitAt: new Date() })
    .where(eq(redirects.id, row.id))
    .run();
  return row.toPath;
}

/**
 * Adds redirects from old addresses unless one exists for that address already: a re-import
 * never undoes the owner's edits, nor resets a hit count. Answers how many were added.
 */
export function addRedirects(db: Pick<Db, 'insert'>, from: string[], toPath: string, source: 'manual' | 'wordpress'): number {
  let added = 0;
  for (const key of new Set(from.map(redirectKey))) {
    if (!key || key === '/' || key === toPath) continue;
    added += db.insert(redirects).values({ fromPath: key, toPath, source }).onConflictDoNothing().run().changes;
  }
  return added;
}
