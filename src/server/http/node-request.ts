// The few things a route answered before Astro's router (scripts/serve.ts) needs from Node's own
// request and response: its headers read like fetch's, its body capped as it arrives, and the
// one error shape every endpoint answers with.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyTooLarge } from './body.ts';
import { HttpError } from './errors.ts';

/** What the request checks read of headers: fetch's Headers, or Node's through headerReader. */
export interface HeaderReader {
  get(name: string): string | null;
}

export function headerReader(req: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * The whole body, or a 413 as soon as it passes `limit` bytes (the declared length is checked
 * first). Past the limit nothing more is kept: the rest is received and discarded.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      reject(bodyTooLarge(undefined, declared));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(bodyTooLarge()) : resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

/** The thrown error as the API's answer: an HttpError as it is, anything else a 500. */
export function sendError(res: ServerResponse, err: unknown): void {
  const known = err instanceof HttpError ? err : new HttpError(500, 'Something went wrong on our side. Please try again.');
  const body: { message: string; issues?: HttpError['issues'] } = { message: known.message };
  if (known.issues?.length) body.issues = known.issues;
  res.writeHead(known.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...known.headers });
  res.end(JSON.stringify(body));
}
