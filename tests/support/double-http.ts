// Plumbing the HTTP doubles share: reading a request's body, answering JSON, and listening on
// 127.0.0.1 (a free port unless one is given) until stopped.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import { freePort } from '#scripts/lib/net.ts';

export const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export function sendJson(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(data));
}

/** Listens on `port` (or a free one), HTTP or HTTPS; answers the port and a `stop` that closes the server. */
export async function listen(server: Server, port?: number): Promise<{ port: number; stop: () => Promise<void> }> {
  const listenPort = port ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  return { port: listenPort, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
