// Serves uploaded files: the right Content-Type from the stored extension, long-lived
// caching (names are random and never reused), byte ranges (206) so audio seeks and podcast
// apps can fetch parts, and nothing that a browser could run as a page on our origin.
import type { APIRoute } from 'astro';
import { fileResponse, notFoundText } from '#server/http/files/file-response.ts';
import { resolveUpload } from '#server/media/local.ts';
import { SERVE_TYPES } from '#server/media/upload-policy.ts';

function serve(path: string | undefined, request: Request, head: boolean): Response {
  const file = path ? resolveUpload(path) : null;
  const type = file ? SERVE_TYPES[file.slice(file.lastIndexOf('.') + 1)] : undefined;
  if (!file || !type) return notFoundText();
  return fileResponse(file, request, { contentType: type, head, headers: { 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Disposition': 'inline' } });
}

export const GET: APIRoute = ({ params, request }) => serve(params.path, request, false);
export const HEAD: APIRoute = ({ params, request }) => serve(params.path, request, true);
