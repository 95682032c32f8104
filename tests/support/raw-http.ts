// HTTP over a bare socket, for requests fetch will not send as they are (a declared
// Content-Length the body never reaches, an unfinished chunk): a server that refuses before
// reading a whole body closes the connection, and a client still sending may then see a reset
// instead of the answer.
import { connect } from 'node:net';
import type { TestServer } from './server.ts';

/**
 * POSTs to `path` with the site's Origin and the session `cookie`, the given header lines
 * (each ending in CRLF) and then `body` if any, and answers the status of the response line.
 */
export function rawPostStatus(server: TestServer, path: string, cookie: string, headers: string, body: Buffer | null = null): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (d) => {
      received += d.toString();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without an answer: ${received}`)));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n${headers}\r\n`);
    if (body) socket.write(body);
  });
}
