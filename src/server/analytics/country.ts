// A visit's country, from an offline database of address ranges (GEOIP_DB: MaxMind's GeoLite2 or
// GeoIP2 Country or City, or the country files of DB-IP or ip-location-db, all .mmdb), read into
// memory: the address is looked up there and goes nowhere else. No database, no country. A newer
// edition put in the file's place (as geoipupdate does) is read within a few seconds.
import { readFileSync, statSync } from 'node:fs';
import { Reader, type CountryResponse } from 'maxmind';
import { env } from '#server/env.ts';
import { logger } from '#server/log.ts';

/** What the databases hold for a range: MaxMind's and DB-IP's shape, or ip-location-db's (country_code). */
type CountryRecord = CountryResponse & { country_code?: string };

/** The database in use, and which file it was read from (its time, size and inode). */
interface Open {
  path: string;
  reader: Reader<CountryRecord>;
  file: string;
}

// The open database (null once it is known that none is configured).
const shared: { geoCountries?: Open | null } = {};

const fileOf = (path: string) => {
  const s = statSync(path);
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
};

/** Reads the database at `path`; throws when the file is not one. Which file is noted first: one replaced while it is read is read again at the next look. */
function read(path: string): Open {
  const file = fileOf(path);
  return { path, reader: new Reader<CountryRecord>(readFileSync(path)), file };
}

/** Opens GEOIP_DB, once; throws when the file is not a database of that format. */
export function openCountryDb(path = env().GEOIP_DB): Reader<CountryRecord> | null {
  if (!path) return (shared.geoCountries = null);
  if (shared.geoCountries?.path !== path) shared.geoCountries = read(path);
  return shared.geoCountries.reader;
}

/**
 * Reads GEOIP_DB again when another file is in its place (true). A file that is missing for the
 * moment changes nothing; one that is not such a database leaves the one in use, said once.
 */
export function reloadCountryDb(): boolean {
  const open = shared.geoCountries;
  if (!open) return false;
  let file: string;
  try {
    file = fileOf(open.path);
  } catch {
    return false;
  }
  if (file === open.file) return false;
  try {
    shared.geoCountries = read(open.path);
    logger.info({ path: open.path }, 'GEOIP_DB: a new edition of the country database was read');
    return true;
  } catch {
    open.file = file;
    logger.warn({ path: open.path }, 'GEOIP_DB: the file in its place is not an IP-to-country database; the one read before stays in use');
    return false;
  }
}

/** The two-letter code of an address's country, or '' (no database, a private or unknown address). */
export function countryOf(ip: string): string {
  try {
    // Opened at start by scripts/serve.ts; under `astro dev`, at the first view.
    const reader = shared.geoCountries === undefined ? openCountryDb() : shared.geoCountries?.reader;
    const found = reader?.get(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
    const code = found?.country?.iso_code ?? found?.registered_country?.iso_code ?? found?.country_code ?? '';
    return /^[A-Z]{2}$/.test(code) ? code : '';
  } catch {
    // Not an address (the reader refuses it), or a file that is no such database.
    return '';
  }
}
