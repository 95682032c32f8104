// Serves uploaded files: the right Content-Type from the stored extension, long-lived
// caching (names are random and never reused), byte ranges (206) so audio seeks and podcast
// apps can fetch parts, and nothing that a browser could run as a page on our origin.
import type { APIRoute } from 'astro';
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { resolveUpload } from '@/server/storage/local';
import { SERVE_TYPES } from '@/server/storage/upload-policy';

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

function serve(path: string | undefined, request: Request, head: boolean): Response {
  const file = path ? resolveUpload(path) : null;
  const type = file ? SERVE_TYPES[file.slice(file.lastIndexOf('.') + 1)] : undefined;
  if (!file || !type) return notFound();
  let size: number;
  let mtime: Date;
  try {
    const st = statSync(file);
    if (!st.isFile()) return notFound();
    size = st.size;
    mtime = st.mtime;
  } catch {
    return notFound();
  }
  const headers = new Headers({
    'Content-Type': type,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Last-Modified': mtime.toUTCString(),
    ETag: `"${size.toString(16)}-${mtime.getTime().toString(16)}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Content-Disposition': 'inline',
  });

  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = request.headers.get('range');
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const valid = m && (m[1] !== '' || m[2] !== '');
    if (valid) {
      if (m[1] === '') {
        start = Math.max(0, size - Number(m[2]));
      } else {
        start = Number(m[1]);
        end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      }
    }
    if (!valid || start > end || start >= size) {
      headers.set('Content-Range', `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    status = 206;
    headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  headers.set('Content-Length', String(end - start + 1));
  if (head || size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream;
  return new Response(stream, { status, headers });
}

export const GET: APIRoute = ({ params, request }) => serve(params.path, request, false);
export const HEAD: APIRoute = ({ params, request }) => serve(params.path, request, true);
