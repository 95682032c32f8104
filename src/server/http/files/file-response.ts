// Sends a file from disk: one byte range (206, 416 for one that starts past the end),
// Content-Length, and nothing a browser could run as a page on our origin. A Range header this
// does not serve (another unit, several ranges, a malformed one) is ignored, as HTTP allows:
// the whole file, 200. Used by the public uploads and by paid downloads.
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';

export interface FileResponseOptions {
  contentType: string;
  /** Extra headers (caching, Content-Disposition, ...). */
  headers?: Record<string, string>;
  head?: boolean;
}

export const notFoundText = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

/** The file at `file` as a response to `request`, or 404 when it is not a readable file. */
export function fileResponse(file: string, request: Request, options: FileResponseOptions): Response {
  let size: number;
  let mtime: Date;
  try {
    const st = statSync(file);
    if (!st.isFile()) return notFoundText();
    size = st.size;
    mtime = st.mtime;
  } catch {
    return notFoundText();
  }
  const headers = new Headers({
    'Content-Type': options.contentType,
    'Accept-Ranges': 'bytes',
    'Last-Modified': mtime.toUTCString(),
    ETag: `"${size.toString(16)}-${mtime.getTime().toString(16)}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    ...options.headers,
  });

  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = servedRange(request.headers.get('range'));
  if (range) {
    const { first, last } = range;
    if (first === '') {
      start = Math.max(0, size - Number(last));
    } else {
      start = Number(first);
      end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    }
    if (start >= size) {
      headers.set('Content-Range', `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    status = 206;
    headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  headers.set('Content-Length', String(end - start + 1));
  if (options.head || size === 0) return new Response(null, { status, headers });
  return new Response(Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream, { status, headers });
}

/**
 * The one byte range of a Range header this serves, as written ('' for a missing end), or null:
 * another unit, several ranges, a malformed one, 'bytes=-' and a last byte before the first are
 * no range (the whole file is sent).
 */
function servedRange(header: string | null): { first: string; last: string } | null {
  const range = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!range) return null;
  const [, first = '', last = ''] = range;
  if (first === '' && last === '') return null;
  if (first !== '' && last !== '' && Number(first) > Number(last)) return null;
  return { first, last };
}

/**
 * The first byte a request asks for when it carries a range this serves that names one (a
 * resumed download), else 0: no range, one this ignores, or one counted from the end.
 */
export function firstByteAsked(request: Request): number {
  const range = servedRange(request.headers.get('range'));
  return range && range.first !== '' ? Number(range.first) : 0;
}
