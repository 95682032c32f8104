// A site whose SITE_URL is https (served behind a proxy that ends TLS, such as Caddy): what every
// answer carries there, whichever part of the server gives it.
import { env } from '#server/env.ts';

/** Whether a site address is https: the one rule every Secure cookie and HSTS header follows. */
export const isHttpsUrl = (siteUrl: string): boolean => siteUrl.startsWith('https://');

/** Whether the site's public address is https. */
export const servedOverHttps = (): boolean => isHttpsUrl(env().SITE_URL);

/**
 * '; Secure' when the site is served over https, else nothing: every cookie the site sets
 * carries it there, so a browser never sends one over plain http (even though the proxy speaks
 * plain http to the server).
 */
export const secureAttribute = (): string => (servedOverHttps() ? '; Secure' : '');

/** Strict-Transport-Security: browsers use only https for the site (and its subdomains) for a year. */
export const HSTS = 'max-age=31536000; includeSubDomains';
