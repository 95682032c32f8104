// A visitor's id for one UTC day: SHA-256 of the day's secret salt, the site, the IP address and
// the user agent. The salt is made at random for each day. It is kept in memory and, so that a
// restart (an upgrade) goes on counting the same visitors and listeners that day, in a file
// beside the database that only the site can read, never in a backup. Once the day is over the
// file is replaced or deleted, and no id can be made again from an address.
// The address and the user agent themselves are never written anywhere.
import { hash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { env } from '#server/env.ts';
import { logger } from '#server/log.ts';
import { DAY_MS, utcDay } from '#shared/time.ts';

interface Salt {
  day: string;
  salt: string;
  from: number;
  until: number;
}

// Shared by every copy of this module in the process (the request handlers and the jobs load
// their own): one salt per process and day, and the file this process keeps it in, once it has
// made or read one (a process that never counted anything, such as a script, deletes no file).
const shared = globalThis as { analyticsSalt?: Salt; analyticsSaltFile?: string };

/** Where the day's salt is kept: beside the database, named after it (the backup copies the database only). */
const saltFile = () => (shared.analyticsSaltFile ??= `${resolve(env().DATABASE_URL)}.analytics-salt`);

/** The salt the file holds for `day`, if it holds that day's. */
function readSalt(day: string): string | null {
  try {
    const kept = JSON.parse(readFileSync(saltFile(), 'utf8')) as { day?: unknown; salt?: unknown };
    return kept.day === day && typeof kept.salt === 'string' && /^[0-9a-f]{64}$/.test(kept.salt) ? kept.salt : null;
  } catch {
    return null;
  }
}

/** Keeps `day`'s salt in the file, in place of the one before (written whole, then renamed). */
function writeSalt(day: string, salt: string): void {
  const file = saltFile();
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify({ day, salt }), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch (err) {
    // Counting goes on with the salt in memory; only a restart today would count anew.
    logger.warn({ err }, 'analytics: the day’s salt could not be kept beside the database');
  }
}

/** Today's salt: the one kept for today, else a new one that replaces yesterday's. */
function saltOf(now: number): string {
  const known = shared.analyticsSalt;
  // Within the salt's day its date is not formatted again: every page view asks.
  if (known && now >= known.from && now < known.until) return known.salt;
  const day = utcDay(now);
  const from = Date.parse(`${day}T00:00:00Z`);
  let salt = readSalt(day);
  if (!salt) {
    salt = randomBytes(32).toString('hex');
    writeSalt(day, salt);
  }
  shared.analyticsSalt = { day, salt, from, until: from + DAY_MS };
  return salt;
}

let host: string | undefined;
/** The site's host (SITE_URL's), read once: every page view and download asks for it. */
export const siteHost = () => (host ??= new URL(env().SITE_URL).host);

/** Forgets a salt of a day that is over, in memory and on disk (the hourly job; a request on the new day replaces it too). */
export function dropSalts(now = Date.now()): void {
  const today = utcDay(now);
  if (shared.analyticsSalt && shared.analyticsSalt.day !== today) delete shared.analyticsSalt;
  if (!shared.analyticsSaltFile || readSalt(today)) return;
  try {
    rmSync(shared.analyticsSaltFile, { force: true });
  } catch (err) {
    logger.warn({ err }, 'analytics: the salt of a day that is over could not be deleted');
  }
}

/**
 * The id of a request's visitor (32 hex digits); `purpose` keeps ids of different uses apart (a
 * podcast listener's id is not their page visitor's id).
 */
export function visitorId(ip: string, userAgent: string, now = Date.now(), purpose: 'visit' | 'listen' = 'visit'): string {
  return hash('sha256', `${saltOf(now)}|${purpose}|${siteHost()}|${ip}|${userAgent}`, 'hex').slice(0, 32);
}
