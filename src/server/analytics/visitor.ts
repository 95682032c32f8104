// A visitor's id for one UTC day: SHA-256 of the day's secret salt, the site, the address (by
// addressKey: an IPv6 address by its /64) and the user agent. The salt is made at random for
// each day and kept in memory only: never on disk, so once the day is over (or the process
// stops) no id can be made again from an address. A restart therefore starts the day's count
// anew: a visitor or listener seen before it is counted again after it.
// The address and the user agent themselves are never written anywhere.
import { hash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { env } from '#server/env.ts';
import { logger } from '#server/log.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';

interface Salt {
  day: string;
  salt: string;
  from: number;
  until: number;
}

// One salt per process and day.
const shared: { analyticsSalt?: Salt; analyticsSaltFileGone?: boolean } = {};

/** Earlier versions kept the day's salt in a file beside the database: deleted by the first salt a process makes. */
function deleteSaltFile(): void {
  shared.analyticsSaltFileGone = true;
  try {
    rmSync(`${resolve(env().DATABASE_URL)}.analytics-salt`, { force: true });
  } catch (err) {
    logger.warn({ err }, 'analytics: the salt file an earlier version kept beside the database could not be deleted');
  }
}

/** Today's salt: the one made today, else a new one in place of yesterday's. */
function saltOf(now: number): string {
  const known = shared.analyticsSalt;
  // Within the salt's day its date is not formatted again: every page view asks.
  if (known && now >= known.from && now < known.until) return known.salt;
  if (!shared.analyticsSaltFileGone) deleteSaltFile();
  const day = utcDay(now);
  const from = Date.parse(`${day}T00:00:00Z`);
  const salt = randomBytes(32).toString('hex');
  shared.analyticsSalt = { day, salt, from, until: from + DAY_MS };
  return salt;
}

let host: string | undefined;
/** The site's host (SITE_URL's), read once: every page view and download asks for it. */
export const siteHost = () => (host ??= new URL(env().SITE_URL).host);

/** Forgets a salt of a day that is over (the hourly job; a request on the new day replaces it too). */
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
