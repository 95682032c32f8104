// A visit's country, from an offline database of address ranges (GEOIP_DB: MaxMind's GeoLite2 or
// GeoIP2 Country or City, or the country files of DB-IP or ip-location-db, all .mmdb), read into
// memory once: the address is looked up there and goes nowhere else. No database, no country.
import { readFileSync } from 'node:fs';
import { Reader, type CountryResponse } from 'maxmind';
import { env } from '#server/env.ts';

/** What the databases hold for a range: MaxMind's and DB-IP's shape, or ip-location-db's (country_code). */
type CountryRecord = CountryResponse & { country_code?: string };

// One copy per process, shared by every copy of this module (the request handlers and the jobs
// load their own): null once it is known that none is configured.
const shared = globalThis as { geoCountries?: { path: string; reader: Reader<CountryRecord> } | null };

/** Opens GEOIP_DB, once; throws when the file is not a database of that format. */
export function openCountryDb(path = env().GEOIP_DB): Reader<CountryRecord> | null {
  if (!path) return (shared.geoCountries = null);
  if (shared.geoCountries?.path !== path) shared.geoCountries = { path, reader: new Reader<CountryRecord>(readFileSync(path)) };
  return shared.geoCountries.reader;
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
