// A visitor's id for one UTC day: SHA-256 of the day's secret salt, the site, the IP address and
// the user agent. The salt is made at random for each day and kept in memory only, never on
// disk (nor in a backup): at the day's end it is forgotten, and no id can be made again from an
// address. A restart makes a new salt, so a visitor reading across it is counted twice that day.
// The address and the user agent themselves are never written anywhere.
import { hash, randomBytes } from 'node:crypto';
import { env } from '#server/env.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';

// Shared by every copy of this module in the process (the request handlers and the jobs load
// their own): one salt per process and day.
const shared = globalThis as { analyticsSalt?: { day: string; salt: string; from: number; until: number } };

/** Today's salt (a new one when the UTC day changes; the old one is dropped at once). */
function saltOf(now: number): string {
  const known = shared.analyticsSalt;
  // Within the salt's day its date is not formatted again: every page view asks.
  if (known && now >= known.from && now < known.until) return known.salt;
  const day = utcDay(now);
  const from = Date.parse(`${day}T00:00:00Z`);
  shared.analyticsSalt = { day, salt: randomBytes(32).toString('hex'), from, until: from + DAY_MS };
  return shared.analyticsSalt.salt;
}

let host: string | undefined;
/** The site's host (SITE_URL's), read once: every page view and download asks for it. */
export const siteHost = () => (host ??= new URL(env().SITE_URL).host);

/** Forgets a salt of a day that is over (the hourly job; a request on the new day does it too). */
export function dropSalts(now = Date.now()): void {
  if (shared.analyticsSalt && shared.analyticsSalt.day !== utcDay(now)) delete shared.analyticsSalt;
}

/**
 * The id of a request's visitor (32 hex digits); `purpose` keeps ids of different uses apart (a
 * podcast listener's id is not their page visitor's id).
 */
export function visitorId(ip: string, userAgent: string, now = Date.now(), purpose: 'visit' | 'listen' = 'visit'): string {
  return hash('sha256', `${saltOf(now)}|${purpose}|${siteHost()}|${ip}|${userAgent}`, 'hex').slice(0, 32);
}
