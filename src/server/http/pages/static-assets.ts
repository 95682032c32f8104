// Built assets from memory: the hashed files under /_astro (and small text files in the
// client folder) are read once at start, compressed with brotli and gzip, and answered with
// long-lived caching. Anything else falls through to Astro's own handler.
// (The .br/.gz files themselves are never served by name: only known asset paths are.)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { HSTS, servedOverHttps } from '#server/http/https.ts';
import { pickEncoding } from './page-cache.ts';

interface Asset {
  type: string;
  raw: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.webmanifest']);
const MAX_BYTES = 512 * 1024;

function walk(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out = out.concat(walk(p));
    else if (st.size <= MAX_BYTES && TYPES[extname(name)]) out.push(p);
  }
  return out;
}

/** Loads and compresses the client folder's small assets; returns a request handler. */
export function createAssetHandler(clientDir: string) {
  const assets = new Map<string, Asset>();
  const https = servedOverHttps();
  for (const file of walk(clientDir)) {
    const ext = extname(file);
    const raw = readFileSync(file);
    const urlPath = `/${relative(clientDir, file).split(sep).join('/')}`;
    // Compressed copies are made at build time (scripts/compress-assets.ts).
    const copy = (suffix: string) => (COMPRESSIBLE.has(ext) && existsSync(file + suffix) ? readFileSync(file + suffix) : null);
    assets.set(urlPath, {
      type: TYPES[ext] ?? 'application/octet-stream',
      raw,
      br: copy('.br'),
      gzip: copy('.gz'),
      etag: `"${createHash('sha1').update(raw).digest('base64url')}"`,
      // Hashed build output never changes under the same name.
      cacheControl: urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    });
  }

  return function serveAsset(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const asset = assets.get(path);
    if (!asset) return false;
    const headers: Record<string, string> = { 'Content-Type': asset.type, 'Cache-Control': asset.cacheControl, ETag: asset.etag, Vary: 'Accept-Encoding', 'X-Content-Type-Options': 'nosniff' };
    if (https) headers['Strict-Transport-Security'] = HSTS;
    if (req.headers['if-none-match'] === asset.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const compressed = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : null;
    const body = compressed ?? asset.raw;
    if (compressed) headers['Content-Encoding'] = encoding!;
    headers['Content-Length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
