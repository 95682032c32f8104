// Old addresses that answer 301 to a page of this site: imported WordPress permalinks and
// redirects the owner adds. They are looked up only for a path that would otherwise be a 404
// (and for WordPress's '/?p=123' form), so pages that exist never pay for them.
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { redirects } from '#db/schema/content.ts';
import { nowMs } from '#db/schema/now.ts';
import { getDb } from '#server/db.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import type { Same } from '#shared/json.ts';
import { QUERY_FORMS, redirectKey, reserved, type RedirectDto, type RedirectInput } from '#shared/schemas/redirect.ts';

export { redirectKey };

export type Redirect = typeof redirects.$inferSelect;
// The API answers rows as they are: the table and RedirectDto must list the same fields.
void (true satisfies Same<Redirect, RedirectDto>);

/** Whether a request could be WordPress's query form ('/?p=123'), which is not a 404 here. */
export const isQueryForm = (url: URL): boolean => url.pathname === '/' && QUERY_FORMS.some((name) => url.searchParams.has(name));

/** Where `url` moved to, counting the hit; null when it is no redirect. */
export function followRedirect(db: Db, url: URL): string | null {
  const key = redirectKey(url.pathname + url.search);
  // No redirect may start under the site's own prefixes (a missing upload, an unknown API path).
  if (!key || reserved(key)) return null;
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
export function addRedirects(db: Pick<Db, 'insert'>, from: string[], toPath: string, source: Redirect['source']): number {
  let added = 0;
  for (const key of new Set(from.map(redirectKey))) {
    if (!key || key === '/' || key === toPath) continue;
    added += db.insert(redirects).values({ fromPath: key, toPath, source }).onConflictDoNothing().run().changes;
  }
  return added;
}

/** Every redirect, newest first, with its hits and where it came from. */
export function listRedirects(): Redirect[] {
  return getDb().select().from(redirects).orderBy(desc(redirects.createdAt), desc(redirects.id)).all();
}

/** One old address has one redirect: a second one for it is a 409 naming the field. */
function refuseDuplicate(fromPath: string, exceptId?: number): void {
  const clash = getDb()
    .select({ id: redirects.id })
    .from(redirects)
    .where(exceptId === undefined ? eq(redirects.fromPath, fromPath) : and(eq(redirects.fromPath, fromPath), ne(redirects.id, exceptId)))
    .get();
  if (clash) {
    const message = `A redirect from ${fromPath} already exists`;
    throw conflict(message, [{ path: ['fromPath'], message }]);
  }
}

/** A redirect the owner adds. */
export function createRedirect(input: RedirectInput): Redirect {
  refuseDuplicate(input.fromPath);
  return getDb()
    .insert(redirects)
    .values({ ...input, source: 'manual' })
    .returning()
    .get();
}

/** Changes both addresses; a new old address starts counting its hits from zero. */
export function updateRedirect(id: number, input: RedirectInput): Redirect {
  const db = getDb();
  const current = db.select({ fromPath: redirects.fromPath }).from(redirects).where(eq(redirects.id, id)).get();
  if (!current) throw notFound('Redirect not found');
  refuseDuplicate(input.fromPath, id);
  const moved = current.fromPath !== input.fromPath;
  const row = db
    .update(redirects)
    .set({ ...input, ...(moved ? { hits: 0, lastHitAt: null } : {}), updatedAt: nowMs })
    .where(eq(redirects.id, id))
    .returning()
    .get();
  if (!row) throw notFound('Redirect not found');
  return row;
}

export function deleteRedirect(id: number): void {
  const result = getDb().delete(redirects).where(eq(redirects.id, id)).run();
  if (result.changes === 0) throw notFound('Redirect not found');
}
