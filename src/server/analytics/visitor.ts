// A visitor's id for one UTC day: SHA-256 of the day's secret salt, the site, the IP address and
// the user agent. The salt is made at random the first time a day needs it and deleted once the
// next day is over, so an id cannot be made again from an address afterwards; the address and
// the user agent themselves are never written anywhere.
import { createHash, randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { analyticsSalts } from '#db/schema/analytics.ts';
import { env } from '#server/env.ts';

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

const salts = new Map<string, string>();

/** The salt of a UTC day, made once (and kept in the database so a restart keeps the same ids). */
export function saltOf(db: Db, day: string): string {
  const known = salts.get(day);
  if (known) return known;
  db.insert(analyticsSalts)
    .values({ day, salt: randomBytes(32).toString('hex') })
    .onConflictDoNothing()
    .run();
  const salt = db.select().from(analyticsSalts).where(eq(analyticsSalts.day, day)).get()!.salt;
  // Older days' salts are no longer needed by anything: gone from memory and from disk.
  dropSalts(db, Date.parse(`${day}T00:00:00Z`));
  salts.set(day, salt);
  return salt;
}

/** Deletes the salts of days before yesterday (relative to `now`). */
export function dropSalts(db: Db, now = Date.now()): void {
  const keep = dayOf(now - DAY_MS);
  for (const d of salts.keys()) if (d < keep) salts.delete(d);
  db.delete(analyticsSalts).where(lt(analyticsSalts.day, keep)).run();
}

/** The visitor id of a request (32 hex digits). */
export function visitorId(db: Db, ip: string, userAgent: string, now = Date.now()): string {
  return createHash('sha256')
    .update(`${saltOf(db, dayOf(now))}|${new URL(env().SITE_URL).host}|${ip}|${userAgent}`)
    .digest('hex')
    .slice(0, 32);
}
