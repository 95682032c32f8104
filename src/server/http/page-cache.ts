// Public HTML from memory: anonymous GETs of public pages are rendered once, kept with gzip
// and brotli copies and an ETag, and dropped whenever content changes (every successful
// write through the API) or after a minute. Headers let a CDN hold pages too.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

interface Entry {
  status: number;
  /** The rendered answer's headers with the cache's own (etag, last-modified, vary, cache-control). */
  headers: Record<string, string>;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  expiresAt: number;
}

const MAX_ENTRIES = 500;
/** All entries together (raw, gzip and brotli bytes): searches with ever new terms cannot grow it. */
const MAX_BYTES = 24 * 1024 * 1024;
const TTL_MS = 60_000;
/** What browsers and CDNs may do with a cached public page. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';

// One store per process, shared by the bundled app (which fills it) and scripts/serve.ts
// (which answers hits before Astro's router runs).
interface Store {
  entries: Map<string, Entry>;
  version: number;
  bytes: number;
}
const g = globalThis as typeof globalThis & { __sitePageCache?: Store };
const store: Store = (g.__sitePageCache ??= { entries: new Map(), version: 0, bytes: 0 });
const entries = store.entries;

const sizeOf = (e: Entry) => e.raw.length + e.gzip.length + e.br.length;

function drop(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  store.bytes -= sizeOf(entry);
}

/** Drops every cached page (content changed). */
export function contentChanged(): void {
  store.version += 1;
  entries.clear();
  store.bytes = 0;
}

/** Taken before rendering: a page rendered across a write is not stored. */
export const cacheVersion = () => store.version;

// Never cached: the API, the admin, files (public uploads and paid downloads), checkout, and
// the e-mail links (single-use tokens).
const SKIP = /^\/(api|admin|uploads|download|_astro|checkout|newsletter\/confirm|newsletter\/unsubscribe|auth\/reset)(\/|$)/;

/** Whether this request may be answered from (and stored in) the cache. */
export function isCacheable(request: Request, url: URL, signedIn: boolean): boolean {
  if (signedIn) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  // Public blog search answers are as cacheable as the pages (and as public).
  if (url.pathname === '/api/blog-posts/search') return true;
  if (SKIP.test(url.pathname)) return false;
  return !/\.(xml|txt)$/.test(url.pathname) || ['/rss.xml', '/podcast.xml', '/robots.txt'].includes(url.pathname) || /^\/sitemap(-\d+)?\.xml$/.test(url.pathname);
}

// The query parameters each cached page reads; any other parameter changes nothing on the page,
// so it is left out of the key (a visitor cannot fill the cache with `?x=1`, `?x=2`, ...).
// On '/', WordPress's query permalinks ('/?p=123') are redirects, never the cached home page.
const PAGE_PARAMS: Record<string, readonly string[]> = {
  '/': ['p', 'page_id', 'attachment_id'],
  '/blog': ['q', 'category', 'tag', 'page'],
  '/api/blog-posts/search': ['q', 'category', 'tag', 'page', 'pageSize'],
  '/auth': ['tab'],
};

/** The cache key of a request: its path and only the query parameters the page reads. */
export function cacheKey(pathname: string, search: string): string {
  const names = PAGE_PARAMS[pathname];
  if (!names || search === '' || search === '?') return pathname;
  const kept = [...new URLSearchParams(search)].filter(([name]) => names.includes(name));
  return kept.length === 0 ? pathname : `${pathname}?${new URLSearchParams(kept).toString()}`;
}

/** The encoding to answer with for an Accept-Encoding header: brotli, then gzip, else none. */
export function pickEncoding(accept: string | null | undefined): 'br' | 'gzip' | null {
  if (/\bbr\b/.test(accept ?? '')) return 'br';
  if (/\bgzip\b/.test(accept ?? '')) return 'gzip';
  return null;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** One answer for both paths (framework Response and raw Node): 304, or the right encoding. */
function answer(entry: Entry, ask: { method: string; ifNoneMatch: string | null; acceptEncoding: string | null }, state: 'HIT' | 'MISS'): Answer {
  const headers: Record<string, string> = { ...entry.headers, 'x-cache': state };
  if (ask.ifNoneMatch?.split(/\s*,\s*/).includes(entry.etag)) return { status: 304, headers, body: null };
  const encoding = pickEncoding(ask.acceptEncoding);
  const body = encoding === 'br' ? entry.br : encoding === 'gzip' ? entry.gzip : entry.raw;
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = String(body.length);
  return { status: entry.status, headers, body: ask.method === 'HEAD' ? null : body };
}

function respond(entry: Entry, request: Request, state: 'HIT' | 'MISS'): Response {
  const a = answer(entry, { method: request.method, ifNoneMatch: request.headers.get('if-none-match'), acceptEncoding: request.headers.get('accept-encoding') }, state);
  // A view of the stored bytes, not a copy (Buffers from zlib and Buffer.from own an ArrayBuffer).
  const body = a.body ? (new Uint8Array(a.body.buffer, a.body.byteOffset, a.body.byteLength) as Uint8Array<ArrayBuffer>) : null;
  return new Response(body, { status: a.status, headers: a.headers });
}

/** A fresh cached answer for this key, or null. */
export function fromCache(key: string, request: Request): Response | null {
  const entry = entries.get(key);
  if (!entry) return null;
  if (entry.expiresAt <= Date.now()) {
    drop(key);
    return null;
  }
  return respond(entry, request, 'HIT');
}

/**
 * The fast path, straight on Node's request and response: answers a cached page without
 * going through the framework. Returns false when the request is not a hit.
 */
export function serveCachedPage(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.headers.cookie && /session_token|site\.flash=/.test(req.headers.cookie)) return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const entry = entries.get(q === -1 ? url : cacheKey(url.slice(0, q), url.slice(q)));
  if (!entry || entry.expiresAt <= Date.now()) return false;
  const a = answer(entry, { method: req.method, ifNoneMatch: req.headers['if-none-match'] ?? null, acceptEncoding: String(req.headers['accept-encoding'] ?? '') }, 'HIT');
  a.headers['x-request-id'] = randomUUID();
  res.writeHead(a.status, a.headers);
  res.end(a.body ?? undefined);
  return true;
}

/**
 * Stores a rendered page when it is cacheable HTML (or a feed) and returns the answer to send.
 * Only a GET's complete answer is stored: a HEAD's has no body, and would be served empty to
 * every GET after it.
 */
export async function storeAndRespond(key: string, request: Request, response: Response, renderedAt: number): Promise<Response> {
  if (request.method !== 'GET') return response;
  const type = response.headers.get('content-type') ?? '';
  const cc = response.headers.get('cache-control') ?? '';
  const cacheableType = /text\/html|application\/(rss\+)?xml|text\/plain|application\/json/.test(type);
  if (response.status !== 200 || !cacheableType || /no-store|private/.test(cc) || response.headers.has('set-cookie')) return response;
  const raw = Buffer.from(await response.arrayBuffer());
  const etag = `"${createHash('sha1').update(raw).digest('base64url')}"`;
  const kept = [...response.headers.entries()].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'x-request-id', 'x-cache'].includes(k));
  const entry: Entry = {
    status: response.status,
    headers: { 'cache-control': PUBLIC_CACHE_CONTROL, ...Object.fromEntries(kept), etag, 'last-modified': new Date().toUTCString(), vary: 'Accept-Encoding, Cookie' },
    raw,
    gzip: gzipSync(raw, { level: 6 }),
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
    etag,
    expiresAt: Date.now() + TTL_MS,
  };
  if (renderedAt !== store.version) return respond(entry, request, 'MISS');
  drop(key);
  const size = sizeOf(entry);
  // Oldest first: a Map iterates in insertion order.
  while (entries.size > 0 && (entries.size >= MAX_ENTRIES || store.bytes + size > MAX_BYTES)) drop(entries.keys().next().value!);
  entries.set(key, entry);
  store.bytes += size;
  return respond(entry, request, 'MISS');
}
