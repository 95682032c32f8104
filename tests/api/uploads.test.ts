import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploadTokens } from '#db/schema/storage.ts';
import { Client, clientAs, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import { DEMO_MP3, PNG_1X1 as PNG } from '#tests/support/media.ts';
import type { TestServer } from '#tests/support/server.ts';

const MP3 = readFileSync(DEMO_MP3);

let server: TestServer;
let admin: SessionClient;
serverWithClients((s) => ({ server, admin } = s));

async function slot(): Promise<string> {
  const res = await admin.post('/api/objects/upload');
  expect(res.status).toBe(200);
  expect(res.body.uploadURL).toMatch(new RegExp(`^${server.url}/api/uploads/`));
  return res.body.uploadURL as string;
}

const put = (url: string, body: Buffer | string, type: string, extra: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': type, Origin: server.url, ...extra } });

describe('upload URLs', () => {
  it('are for admins only', async () => {
    expect((await new Client(server).post('/api/objects/upload')).status).toBe(401);
    const user = await clientAs(server, 'user');
    expect((await user.post('/api/objects/upload')).status).toBe(403);
  });

  it('take an image and serve it back with its type', async () => {
    const res = await put(await slot(), PNG, 'image/png');
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\/\d{4}\/\d{2}\/[a-f0-9]{24}\.png$/);
    const file = await fetch(`${server.url}${url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('serve audio with byte ranges so players can seek', async () => {
    const res = await put(await slot(), MP3, 'audio/mpeg');
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    const part = await fetch(`${server.url}${url}`, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${MP3.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(MP3.subarray(100, 200))).toBe(true);
    const head = await fetch(`${server.url}${url}`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(MP3.length));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const bad = await fetch(`${server.url}${url}`, { headers: { Range: `bytes=${MP3.length + 10}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${MP3.length}`);
    // A Range this does not serve (several ranges, another unit, a malformed one) is ignored: the whole file.
    for (const other of ['bytes=0-1,4-5', 'items=0-1', 'bytes=abc', 'bytes=9-3']) {
      const whole = await fetch(`${server.url}${url}`, { headers: { Range: other } });
      expect(whole.status, other).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(MP3), other).toBe(true);
    }
  });

  it('work once', async () => {
    const url = await slot();
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
    const again = await put(url, PNG, 'image/png');
    expect(again.status).toBe(403);
  });

  it('expire', async () => {
    const url = await slot();
    server.db
      .update(uploadTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run();
    expect((await put(url, PNG, 'image/png')).status).toBe(403);
  });

  it('refuse an unknown secret', async () => {
    expect((await put(`${server.url}/api/uploads/${'x'.repeat(32)}`, PNG, 'image/png')).status).toBe(404);
  });
});

describe('upload checks', () => {
  it('refuses types other than image and audio with 415, before using the URL', async () => {
    const url = await slot();
    expect((await put(url, '<html><script>alert(1)</script></html>', 'text/html')).status).toBe(415);
    // The refused attempt did not spend the URL.
    expect((await put(url, PNG, 'image/png')).status).toBe(200);
  });

  it('checks the bytes, not only the header', async () => {
    expect((await put(await slot(), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml')).status).toBe(415);
    expect((await put(await slot(), MP3, 'image/png')).status).toBe(415);
    expect((await put(await slot(), PNG, 'audio/mpeg')).status).toBe(415);
    expect((await put(await slot(), Buffer.from('just text pretending'), 'image/jpeg')).status).toBe(415);
  });

  it('refuses an image over 5 MB with 413 and stores nothing', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await put(await slot(), big, 'image/png');
    expect(res.status).toBe(413);
    // A 5 MB + file under the audio limit is fine as audio-sized, but not as an image.
    const used = server.db
      .select()
      .from(uploadTokens)
      .all()
      .filter((t) => t.usedAt).length;
    expect(used).toBeGreaterThan(0);
  });

  it('refuses a body larger than declared limits even without Content-Length, and the client still sending reads the 413', async () => {
    const url = await slot();
    // 35 MB past a 5 MB limit: far more than the connection buffers hold, so a server that closed
    // at the limit would reset the connection before the client, still sending, read the answer.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(PNG));
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const res = await fetch(url, { method: 'PUT', body: chunks, headers: { 'Content-Type': 'image/png', Origin: server.url }, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });
});

describe('serving uploads', () => {
  it.each([
    '/uploads/../../package.json',
    '/uploads/..%2F..%2Fpackage.json',
    '/uploads/%2e%2e/%2e%2e/data/site.db',
    '/uploads/.tmp/anything',
    '/uploads/2026/01/../../../../etc/passwd',
    '/uploads/2026/01/0123456789abcdef01234567.html',
  ])('never serves %s', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('personal-brand-site');
  });

  it('answers 404 for a missing file', async () => {
    expect((await fetch(`${server.url}/uploads/2026/01/0123456789abcdef01234567.png`)).status).toBe(404);
  });
});

describe('token storage', () => {
  it('keeps only a hash of the secret', async () => {
    const url = await slot();
    const secret = url.split('/').pop()!;
    const rows = server.db.select().from(uploadTokens).where(eq(uploadTokens.id, secret)).all();
    expect(rows).toEqual([]);
  });
});
