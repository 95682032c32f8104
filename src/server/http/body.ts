// Every request body is read through here. The declared Content-Length is checked first, then
// the stream is counted as it arrives, so a chunked body with no length is cut off at the cap as
// well: nothing past the limit is ever held in memory. Uploads stream to disk with their own
// count (storage), everything else uses these caps.
import { HttpError } from './errors.ts';

/** JSON bodies of the API (posts with long HTML stay far below it). */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Stripe's webhook deliveries (events are a few KB). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const TOO_LARGE = 'Request body too large';

/** Past this, a refused body is not worth receiving: the connection is closed instead. */
const DISCARD_AT_MOST = 16 * 1024 * 1024;

/**
 * 413 for a body declared over the limit, answered before any of it is read. Up to 16 MB the
 * rest is received and discarded by Node's server (closing while the client still sends can
 * reset the connection before it reads the answer); a larger one closes the connection.
 */
export const bodyTooLarge = (message = TOO_LARGE, declared = Infinity) => new HttpError(413, message, undefined, declared > DISCARD_AT_MOST ? { Connection: 'close' } : undefined);

/**
 * The whole body of a request (or of an answer fetched from elsewhere), or a 413 as soon as it
 * passes `limit` bytes. Past the limit nothing more is kept: Node's server discards the rest of a
 * request as it arrives (closing the connection instead would reset it, and the client could
 * lose the answer); a fetched answer's caller cancels its body.
 */
export async function readBody(request: Pick<Request, 'headers' | 'body'>, limit: number, message = TOO_LARGE): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw bodyTooLarge(message, Number(declared));
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      throw new HttpError(413, message);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/** The body as UTF-8 text, capped like readBody. */
export async function readText(request: Pick<Request, 'headers' | 'body'>, limit: number, message = TOO_LARGE): Promise<string> {
  return new TextDecoder().decode(await readBody(request, limit, message));
}

/** The media type of a Content-Type header, lower-cased, without its parameters. */
export const mediaType = (contentType: string | null) => (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();

/** Whether a Content-Type names JSON itself (parameters such as charset allowed), nothing else. */
export const isJsonType = (contentType: string | null) => mediaType(contentType) === 'application/json';
