// Public HTML from memory: anonymous GETs of public pages are rendered once, kept with gzip
// and brotli copies and an ETag, and refreshed after a minute or when a write changes what
// they show. Headers let a CDN hold pages too.
//
// A write names what it touches (posts, the podcast, or everything), and only the pages that
// show it are refreshed: the others stay as they are. Readers never wait for a refresh: a
// stale page is answered at once while exactly one render replaces it in the background, and
// requests for a page nobody has rendered yet share one render. Only an edit of what stays
// public is refreshed that way: what appears or goes away (a post published, unpublished or
// deleted, a comment approved or deleted) shows at the very next request, as those pages are
// dropped, not refreshed.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { requestIdFor } from '#server/log.ts';

interface Entry {
  status: number;
  /** The rendered answer's headers with the cache's own (etag, vary, cache-control). */
  headers: Record<string, string>;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /** The headers of a 200 HIT in each encoding, made once rather than copied for every request (see answer). */
  hit: Record<'br' | 'gzip' | 'raw', Record<string, string>>;
  /** Fresh until then; after it (or once a write marked it stale) it is served while it is re-rendered. */
  expiresAt: number;
  stale: boolean;
}

const MAX_ENTRIES = 500;
/** All entries together (raw, gzip and brotli bytes): searches with ever new terms cannot grow it. */
const MAX_BYTES = 24 * 1024 * 1024;
const TTL_MS = 60_000;
/** How long past its minute a page may still be answered while its replacement renders. */
const STALE_MS = 10 * 60_000;
/** What browsers and CDNs may do with a cached public page. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';

// One store per process: the pages fill it, and scripts/serve.ts answers hits from it before
// Astro's router runs (both use this module of the one server bundle).
interface Store {
  entries: Map<string, Entry>;
  version: number;
  bytes: number;
  renders: number;
  /** Renders under way, by key, with the cache version each started at. */
  inflight: Map<string, { version: number; done: Promise<Entry | null> }>;
}
const store: Store = { entries: new Map(), version: 0, bytes: 0, renders: 0, inflight: new Map() };
const entries = store.entries;

/**
 * The render under way for `key` that a request may share: one that started at the current
 * version. One that started before a write may show what the write changed or removed.
 */
function currentRender(key: string): Promise<Entry | null> | undefined {
  const job = store.inflight.get(key);
  return job?.version === store.version ? job.done : undefined;
}

const sizeOf = (e: Entry) => e.raw.length + e.gzip.length + e.br.length;

function drop(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  store.bytes -= sizeOf(entry);
}

/** What a write touches: the blog's posts (and comments), the podcast, the pages a predicate picks (by cache key), or anything at all. */
export type ContentScope = 'posts' | 'podcast' | 'all' | { pages: (key: string) => boolean };

export interface ContentChange {
  scope: ContentScope;
  /** Applied at the very next request (pages dropped, not refreshed in the background): something appeared, went away or moved. */
  now?: boolean;
}

// The pages that show posts, and those that show episodes; the home page and the newsletter
// page list the latest posts, the sitemap lists both. Any other page (/work-with-me, the
// privacy policy, /auth) shows neither.
const SHOWS_POSTS = /^\/(?:$|\?|blog(?:[/?]|$)|newsletter$|rss\.xml$|sitemap(?:-\d+)?\.xml$|api\/blog-posts\/search)/;
const SHOWS_EPISODES = /^\/(?:podcast(?:[/?]|\.xml$|$)|sitemap(?:-\d+)?\.xml$)/;

/** The page a cache key shows: '/work-with-me/' is '/work-with-me' (both addresses are served, each kept under its own key). */
const pageOf = (key: string) => key.replace(/(?<=.)\/+(?=\?|$)/, '');

const touches = (key: string, scope: ContentScope) => {
  const page = pageOf(key);
  return typeof scope === 'object' ? scope.pages(page) : scope === 'all' || (scope === 'posts' ? SHOWS_POSTS : SHOWS_EPISODES).test(page);
};

interface Publishable {
  isPublished: boolean;
  slug: string;
}

/**
 * A post or an episode was written (`before` null when it is new, `after` null when deleted).
 * An edit of what stays public at the same address is refreshed in the background; what
 * appears, disappears or moves shows at the very next request; drafts change no page.
 */
export function itemChanged(scope: 'posts' | 'podcast', before: Publishable | null | undefined, after: Publishable | null | undefined): void {
  const was = before?.isPublished === true;
  const is = after?.isPublished === true;
  if (!was && !is) return;
  contentChanged({ scope, now: !(was && is && before.slug === after.slug) });
}

/**
 * A write changed content: the pages showing it are marked stale (answered once more while
 * they re-render), or dropped when something was removed. A render under way when the write
 * happened is not kept.
 */
export function contentChanged(change: ContentChange = { scope: 'all', now: true }): void {
  store.version += 1;
  for (const [key, entry] of entries) {
    if (!touches(key, change.scope)) continue;
    if (change.now) drop(key);
    else entry.stale = true;
  }
}

// Never cached: the API, the admin, files (public uploads and paid downloads), checkout, and
// the e-mail links (single-use tokens, and the counted opens and clicks of an issue).
const SKIP = /^\/(api|admin|uploads|download|_astro|checkout|newsletter\/confirm|newsletter\/unsubscribe|newsletter\/o|newsletter\/c|auth\/reset)(\/|$)/;

/** Whether this request may be answered from (and stored in) the cache. */
export function isCacheable(request: Request, url: URL, signedIn: boolean): boolean {
  if (signedIn) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  // Public blog search answers are as cacheable as the pages (and as public).
  if (url.pathname === '/api/blog-posts/search') return true;
  if (SKIP.test(url.pathname)) return false;
  return !/\.(xml|txt)$/.test(url.pathname) || ['/rss.xml', '/podcast.xml', '/newsletter/rss.xml', '/robots.txt'].includes(url.pathname) || /^\/sitemap(-\d+)?\.xml$/.test(url.pathname);
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
  // '/blog/' reads the same parameters as '/blog' (both addresses are served).
  const names = PAGE_PARAMS[pageOf(pathname)];
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

/** The X-Cache header: HIT (fresh), STALE (answered while re-rendered), MISS (rendered for this request). */
type CacheState = 'HIT' | 'STALE' | 'MISS';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * One answer for both paths (framework Response and raw Node): 304, or the right encoding. A
 * fresh hit's headers are the entry's own object, made once: not to be kept or changed but for
 * the request id, which Node reads as it writes them.
 */
function answer(entry: Entry, ask: { method: string; ifNoneMatch: string | null; acceptEncoding: string | null }, state: CacheState): Answer {
  if (ask.ifNoneMatch?.split(/\s*,\s*/).includes(entry.etag)) return { status: 304, headers: { ...entry.headers, 'x-cache': state }, body: null };
  const encoding = pickEncoding(ask.acceptEncoding);
  const hit = entry.hit[encoding ?? 'raw'];
  const body = encoding ? entry[encoding] : entry.raw;
  return { status: entry.status, headers: state === 'HIT' ? hit : { ...hit, 'x-cache': state }, body: ask.method === 'HEAD' ? null : body };
}

function respond(entry: Entry, request: Request, state: CacheState): Response {
  const a = answer(entry, { method: request.method, ifNoneMatch: request.headers.get('if-none-match'), acceptEncoding: request.headers.get('accept-encoding') }, state);
  // A view of the stored bytes, not a copy (Buffers from zlib and Buffer.from own an ArrayBuffer).
  const body = a.body ? (new Uint8Array(a.body.buffer, a.body.byteOffset, a.body.byteLength) as Uint8Array<ArrayBuffer>) : null;
  return new Response(body, { status: a.status, headers: a.headers });
}

const isFresh = (e: Entry, now = Date.now()) => !e.stale && e.expiresAt > now;

/**
 * Answers a cacheable request: fresh from the cache; stale at once while one background
 * `render` replaces it; or, when nothing is cached, from one render shared by every request
 * for the page meanwhile. `render` produces this request's answer (it is only called when
 * needed); answers that cannot be kept (errors, private pages) are this request's own.
 */
export async function cached(key: string, request: Request, render: () => Promise<Response>): Promise<Response> {
  const entry = entries.get(key);
  const now = Date.now();
  if (entry && isFresh(entry, now)) return respond(entry, request, 'HIT');
  if (entry && request.method === 'GET' && entry.expiresAt + STALE_MS > now) {
    if (!currentRender(key)) void refresh(key, render);
    return respond(entry, request, 'STALE');
  }
  if (entry) drop(key);
  if (request.method !== 'GET') return render();
  const shared = currentRender(key);
  if (shared) {
    const done = await shared;
    return done ? respond(done, request, 'HIT') : render();
  }
  const done = await startRender(key, render);
  return done.entry ? respond(done.entry, request, 'MISS') : done.own!;
}

/** Re-renders a stale page in the background; a page that is no longer there is dropped. */
async function refresh(key: string, render: () => Promise<Response>): Promise<void> {
  try {
    if (!(await startRender(key, render)).entry) drop(key);
  } catch {
    // The stale copy stays until its time is up; the next request tries again.
  }
}

/** Renders a page as the one render under way for `key`, which other requests may wait for. */
function startRender(key: string, render: () => Promise<Response>): Promise<{ entry: Entry | null; own?: Response }> {
  const job = renderEntry(key, render);
  const shared = job.then(
    (r) => r.entry,
    () => null,
  );
  const mine = { version: store.version, done: shared };
  store.inflight.set(key, mine);
  // A newer render of the page may have taken the slot meanwhile: only this one's is cleared.
  void shared.then(() => {
    if (store.inflight.get(key) === mine) store.inflight.delete(key);
  });
  return job;
}

/**
 * Renders a page and keeps it when it may be kept (and no write happened meanwhile); an
 * answer that may not be kept comes back as it is.
 */
async function renderEntry(key: string, render: () => Promise<Response>): Promise<{ entry: Entry | null; own?: Response }> {
  const renderedAt = store.version;
  const response = await render();
  if (!keepable(response)) return { entry: null, own: response };
  const entry = await toEntry(response);
  if (renderedAt === store.version) put(key, entry);
  return { entry };
}

/**
 * The fast path, straight on Node's request and response: answers a cached page without
 * going through the framework. Returns false when the request is not a hit (or a stale page
 * being re-rendered).
 */
export function serveCachedPage(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const ask = fastAsk(req.rawHeaders);
  if (ask.cookie && /session_token|site\.flash=/.test(ask.cookie)) return false;
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const key = q === -1 ? url : cacheKey(url.slice(0, q), url.slice(q));
  const entry = entries.get(key);
  if (!entry) return false;
  let state: CacheState = 'HIT';
  if (!isFresh(entry)) {
    // A stale page whose re-render is under way is answered here too, so readers never queue
    // behind it; the first request after a change goes through the framework, which starts it.
    if (req.method !== 'GET' || !currentRender(key) || entry.expiresAt + STALE_MS <= Date.now()) return false;
    state = 'STALE';
  }
  const a = answer(entry, { method: req.method, ifNoneMatch: ask.ifNoneMatch, acceptEncoding: ask.acceptEncoding }, state);
  a.headers['x-request-id'] = requestIdFor(ask.requestId);
  res.writeHead(a.status, a.headers);
  res.end(a.body ?? undefined);
  return true;
}

/**
 * The four request headers the fast path reads, from Node's raw list: asking req.headers
 * would build an object of every header for every request.
 */
function fastAsk(raw: string[]): { cookie: string | null; ifNoneMatch: string | null; acceptEncoding: string | null; requestId: string | null } {
  let cookie: string | null = null;
  let ifNoneMatch: string | null = null;
  let acceptEncoding: string | null = null;
  let requestId: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    if (name.length === 6 && name.toLowerCase() === 'cookie') cookie = cookie === null ? value : `${cookie}; ${value}`;
    else if (name.length === 13 && name.toLowerCase() === 'if-none-match') ifNoneMatch = ifNoneMatch === null ? value : `${ifNoneMatch}, ${value}`;
    else if (name.length === 15 && name.toLowerCase() === 'accept-encoding') acceptEncoding = acceptEncoding === null ? value : `${acceptEncoding}, ${value}`;
    else if (name.length === 12 && name.toLowerCase() === 'x-request-id') requestId = requestId === null ? value : `${requestId}, ${value}`;
  }
  return { cookie, ifNoneMatch, acceptEncoding, requestId };
}

/** Whether a rendered answer may be kept: a 200 of HTML (or a feed, or JSON), public, setting no cookie. */
function keepable(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  const cc = response.headers.get('cache-control') ?? '';
  const cacheableType = /text\/html|application\/(rss\+)?xml|text\/plain|application\/json/.test(type);
  return response.status === 200 && cacheableType && !/no-store|private/.test(cc) && !response.headers.has('set-cookie');
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const SCRIPT_HASH = /'sha256-[A-Za-z0-9+/]+={0,2}'/g;

/**
 * A page's policy with only the script hashes of the inline scripts it holds. The build lists
 * the hashes of every inline script of the site in every page's policy; a page allowed to run
 * only its own scripts gives an injected copy of another page's nothing to reuse, and its
 * header is smaller. A script the policy does not list (or a policy without a script-src)
 * leaves the policy as it was. Data blocks (JSON-LD) never run and need no hash.
 */
export function ownScriptPolicy(policy: string, html: string): string {
  const own = new Set<string>();
  for (const [, attrs = '', body = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    own.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  const directives = policy.split(';');
  const at = directives.findIndex((d) => /^\s*script-src\s/i.test(d));
  if (at === -1) return policy;
  const listed = new Set(directives[at]!.match(SCRIPT_HASH) ?? []);
  if ([...own].some((h) => !listed.has(h))) return policy;
  directives[at] = directives[at]!.replace(SCRIPT_HASH, (h) => (own.has(h) ? h : ''))
    .replace(/ {2,}/g, ' ')
    .trimEnd();
  return directives.join(';');
}

/** A keepable answer as a cache entry, with its compressed copies. */
async function toEntry(response: Response): Promise<Entry> {
  const raw = Buffer.from(await response.arrayBuffer());
  const etag = `"${createHash('sha1').update(raw).digest('base64url')}"`;
  const kept = [...response.headers.entries()]
    .filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'x-request-id', 'x-cache'].includes(k))
    .map(([k, v]): [string, string] => (k === 'content-security-policy' && /text\/html/.test(response.headers.get('content-type') ?? '') ? [k, ownScriptPolicy(v, raw.toString('utf8'))] : [k, v]));
  store.renders += 1;
  const headers = {
    'cache-control': PUBLIC_CACHE_CONTROL,
    ...Object.fromEntries(kept),
    // The ETag is the page's one validator (a matching If-None-Match gets a 304). No
    // Last-Modified: it would be the time of the render, new every minute for the same page,
    // and If-Modified-Since is not answered.
    etag,
    vary: 'Accept-Encoding, Cookie',
    // Which render of this process made it: shows how often pages are rendered.
    'x-cache-render': String(store.renders),
  };
  const gzip = gzipSync(raw, { level: 6 });
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const hit = (body: Buffer, encoding?: string) => ({ ...headers, 'x-cache': 'HIT', ...(encoding && { 'content-encoding': encoding }), 'content-length': String(body.length), 'x-request-id': '' });
  return { status: response.status, headers, raw, gzip, br, etag, hit: { br: hit(br, 'br'), gzip: hit(gzip, 'gzip'), raw: hit(raw) }, expiresAt: Date.now() + TTL_MS, stale: false };
}

function put(key: string, entry: Entry): void {
  drop(key);
  const size = sizeOf(entry);
  // Oldest first: a Map iterates in insertion order.
  while (entries.size > 0 && (entries.size >= MAX_ENTRIES || store.bytes + size > MAX_BYTES)) drop(entries.keys().next().value!);
  entries.set(key, entry);
  store.bytes += size;
}
