// Redirects from old addresses: the key an address is stored under, what Admin → Redirects
// sends, and what the API answers.
import * as z from 'zod';

/** WordPress's query permalinks: a post (?p=), a page (?page_id=), an attachment. */
export const QUERY_FORMS = ['p', 'page_id', 'attachment_id'] as const;

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

/** Paths the site itself answers, which no redirect may take over. */
export const RESERVED_PREFIXES = ['/admin', '/api', '/_astro', '/uploads'] as const;

const isHttpUrl = (v: string) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);

/** A path of this site: one leading '/', never '//' or '/\' (which browsers read as another host). */
const isSitePath = (v: string) => /^\/(?![/\\])/.test(v);

/** Whether a redirect key lies under the prefixes the site answers itself. */
export const reserved = (key: string) => RESERVED_PREFIXES.some((prefix) => key === prefix || key.startsWith(`${prefix}/`));

/** The old address: a path or a full URL of the old site, stored as its redirectKey. */
const fromPath = z
  .string({ error: 'Old address is required' })
  .trim()
  .min(1, { message: 'Old address is required', abort: true })
  .max(500, { message: 'Old address must be at most 500 characters', abort: true })
  .refine((v) => isSitePath(v) || isHttpUrl(v), { message: 'Old address must be a path starting with / or a full http(s) address of the old site', abort: true })
  .transform((v) => redirectKey(v) ?? '')
  .refine((key) => key !== '' && key !== '/', { message: 'Old address cannot be the home page', abort: true })
  .refine((key) => !reserved(key), 'Old address cannot be under /admin, /api, /_astro or /uploads');

/** The new address: a path of this site or a full http(s) URL, stored percent-encoded. */
const toPath = z
  .string({ error: 'New address is required' })
  .trim()
  .min(1, { message: 'New address is required', abort: true })
  .max(500, { message: 'New address must be at most 500 characters', abort: true })
  .refine((v) => isSitePath(v) || isHttpUrl(v), { message: 'New address must be a path of this site starting with / or a full http(s) address', abort: true })
  .transform((v) => {
    if (!isSitePath(v)) return new URL(v).href;
    const url = new URL(v, 'http://localhost');
    return url.pathname + url.search + url.hash;
  })
  .refine((v) => v.length <= 500, 'New address must be at most 500 characters');

/** A redirect as Admin → Redirects sends it (create and update alike). */
export const RedirectInputSchema = z
  .object({ fromPath, toPath })
  .refine((r) => !isSitePath(r.toPath) || redirectKey(r.toPath) !== r.fromPath, { message: 'New address must differ from the old address', path: ['toPath'] });
export type RedirectInput = z.infer<typeof RedirectInputSchema>;

/** A redirect as the API answers it. */
export interface RedirectDto {
  id: number;
  /** The stored key: a lower-cased path without a trailing slash, or '/?p=123'. */
  fromPath: string;
  toPath: string;
  /** Visits it answered, and the last one. */
  hits: number;
  lastHitAt: Date | null;
  /** The import that added it, or 'manual'. */
  source: 'manual' | 'wordpress' | 'substack' | 'ghost';
  createdAt: Date;
  updatedAt: Date;
}
