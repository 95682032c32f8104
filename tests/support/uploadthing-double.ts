// A local stand-in for UploadThing's ingest server, which the real `uploadthing` SDK reaches
// through its documented `ingestUrl` setting (UPLOADTHING_INGEST_URL). It does what the real
// one does with a server-side upload: checks the presigned URL's HMAC signature (made with the
// token's API key), its expiry and app id, takes the multipart "file" field, checks the size
// the URL declared, keeps the bytes and answers the file's URLs; then serves the file at that
// URL (GET/HEAD, with byte ranges). `failNext` makes the next uploads answer 500.
// With `tls`, it answers over HTTPS with the self-signed test certificate in tests/fixtures/tls,
// like the real service: browsers then load its files under the page policy (img-src https:),
// given Playwright's ignoreHTTPSErrors, and the site's server trusts it via NODE_EXTRA_CA_CERTS.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { listen, readBody, sendJson } from './double-http.ts';
import { freePort } from '#scripts/lib/net.ts';
import { ROOT } from '#scripts/lib/paths.ts';
import { uploadThingToken } from './uploadthing-token.ts';

export interface UploadThingFile {
  key: string;
  name: string;
  type: string;
  bytes: Buffer;
}

export { uploadThingToken };

function signatureOk(full: URL, apiKey: string): boolean {
  const given = full.searchParams.get('signature') ?? '';
  if (!given.startsWith('hmac-sha256=')) return false;
  const unsigned = new URL(full);
  unsigned.searchParams.delete('signature');
  const expected = createHmac('sha256', apiKey).update(unsigned.toString()).digest();
  const actual = Buffer.from(given.slice('hmac-sha256='.length), 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const TEST_CA_CERT = `${ROOT}tests/fixtures/tls/localhost-cert.pem`;

export async function startUploadThingDouble(port?: number, opts: { apiKey?: string; appId?: string; tls?: boolean } = {}) {
  const apiKey = opts.apiKey ?? 'sk_test_uploadthing_double';
  const appId = opts.appId ?? 'testapp';
  const files = new Map<string, UploadThingFile>();
  const refusals: string[] = [];
  let failures = 0;
  const listenPort = port ?? (await freePort());
  const base = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${listenPort}`;

  const handler: RequestListener = (req, res) => void handle(req, res);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, data: unknown) => sendJson(res, status, data);
    const refuse = (status: number, message: string) => {
      refusals.push(message);
      send(status, { error: message });
    };
    const full = new URL(req.url ?? '/', `${opts.tls ? 'https' : 'http'}://${req.headers.host}`);
    if (full.pathname === '/__health') return send(200, { ok: true });

    const served = /^\/f\/([A-Za-z0-9_-]+)$/.exec(full.pathname);
    if (served && (req.method === 'GET' || req.method === 'HEAD')) {
      const file = files.get(served[1]);
      if (!file) return send(404, { error: 'Not found' });
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      const end = range && range[2] ? Math.min(Number(range[2]), file.bytes.length - 1) : file.bytes.length - 1;
      res.writeHead(range ? 206 : 200, {
        'Content-Type': file.type,
        'Content-Length': String(end - start + 1),
        'Accept-Ranges': 'bytes',
        'Cache-Control': 'public, max-age=31536000, immutable',
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${file.bytes.length}` } : {}),
      });
      return res.end(req.method === 'HEAD' ? undefined : file.bytes.subarray(start, end + 1));
    }

    const ingest = /^\/([A-Za-z0-9_-]+)$/.exec(full.pathname);
    if (req.method !== 'PUT' || !ingest) return send(404, { error: 'Not found' });
    const body = await readBody(req);
    if (failures > 0) {
      failures -= 1;
      return send(500, { error: 'Internal server error' });
    }
    if (!signatureOk(full, apiKey)) return refuse(403, 'Invalid signature');
    if (Number(full.searchParams.get('expires')) < Date.now()) return refuse(403, 'URL expired');
    if (full.searchParams.get('x-ut-identifier') !== appId) return refuse(403, 'Wrong app');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return refuse(400, 'Expected multipart form data');
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) return refuse(400, 'No file');
    const bytes = Buffer.from(await file.arrayBuffer());
    // The SDK encodes each value before appending it, so the parsed value is decoded once more.
    const param = (name: string) => decodeURIComponent(full.searchParams.get(name) ?? '');
    if (Number(param('x-ut-file-size')) !== bytes.length) return refuse(400, 'Size mismatch');
    const key = ingest[1];
    files.set(key, { key, name: param('x-ut-file-name'), type: param('x-ut-file-type'), bytes });
    const url = `${base}/f/${key}`;
    send(200, { url, appUrl: url, ufsUrl: url, fileHash: createHash('md5').update(bytes).digest('hex'), serverData: null });
  };
  const server = opts.tls ? createTlsServer({ cert: readFileSync(TEST_CA_CERT), key: readFileSync(`${ROOT}tests/fixtures/tls/localhost-key.pem`) }, handler) : createServer(handler);
  const { stop } = await listen(server, listenPort);
  return {
    url: base,
    token: uploadThingToken(apiKey, appId),
    files,
    refusals,
    failNext: (n: number) => {
      failures = n;
    },
    stop,
  };
}
