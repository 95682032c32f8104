// Pages rendered for one request (a booking page with its open times, a flash message) leave
// compressed like the cached ones: a booking page is some 145 KB of HTML and 18 KB gzipped,
// which on a phone's connection is most of the wait before the first paint.
import { pickEncoding } from './page-cache.ts';

/** Smaller than this, compressing saves less than it costs. */
const MIN_BYTES = 1024;

/**
 * The response with its HTML body compressed as a stream (brotli, else gzip) when the client
 * takes it. Only for visitors without a session: a signed-in person's page may hold a secret
 * beside text an attacker chose, which compression would let them guess (BREACH).
 */
export function compressHtml(response: Response, acceptEncoding: string | null, signedIn: boolean): Response {
  const encoding = pickEncoding(acceptEncoding);
  if (!encoding || signedIn || !response.body || response.headers.has('content-encoding')) return response;
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
  const length = Number(response.headers.get('content-length') ?? Infinity);
  if (length < MIN_BYTES) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-encoding', encoding);
  headers.append('vary', 'Accept-Encoding');
  // Node's CompressionStream takes 'brotli' (since 24); the DOM types name gzip and deflate only.
  const format = (encoding === 'br' ? 'brotli' : 'gzip') as CompressionFormat;
  const body = response.body.pipeThrough(new CompressionStream(format));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
