// With UPLOADTHING_TOKEN set, the same upload flow (POST /api/objects/upload, PUT uploadURL)
// stores files on UploadThing: the real `uploadthing` SDK, pointed at a local double of the
// ingest server through UPLOADTHING_INGEST_URL. Our own checks still run first.
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedFiles } from '#db/schema/storage.ts';
import { clientAs, uploadFile, type Client } from '#tests/support/factories.ts';
import { DEMO_MP3, PNG_1X1 as PNG } from '#tests/support/media.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { startUploadThingDouble, uploadThingToken } from '#tests/support/uploadthing-double.ts';

const MP3 = readFileSync(DEMO_MP3);

let double: Awaited<ReturnType<typeof startUploadThingDouble>>;
let server: TestServer;
let admin: Client;
beforeAll(async () => {
  double = await startUploadThingDouble();
  server = await startServer({ UPLOADTHING_TOKEN: double.token, UPLOADTHING_INGEST_URL: double.url });
  admin = await clientAs(server, 'admin');
});
afterAll(async () => {
  await server?.stop();
  await double?.stop();
});

/** An upload as the admin (or as `as`, to the server `as` is a client of). */
const upload = (body: Buffer | string, type: string, as: Client = admin) => uploadFile(as, body, type);

describe('uploads with UPLOADTHING_TOKEN set', () => {
  it('store an image on UploadThing and answer its URL there', async () => {
    const res = await upload(PNG, 'image/png');
    expect(res.status).toBe(200);
    const url = res.body.url as string;
    expect(url.startsWith(`${double.url}/f/`)).toBe(true);
    const key = url.split('/').pop()!;
    const kept = double.files.get(key)!;
    expect(kept.bytes.equals(PNG)).toBe(true);
    expect(kept.type).toBe('image/png');
    expect(kept.name).toMatch(/^[a-f0-9]{24}\.png$/);
    // The public URL serves the same bytes.
    const served = await fetch(url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    // Nothing went to the local uploads folder; the file is recorded with its storage.
    const row = server.db
      .select()
      .from(storedFiles)
      .all()
      .find((f) => f.url === url);
    expect(row).toMatchObject({ storage: 'uploadthing', key, contentType: 'image/png', size: PNG.length });
  });

  it('give audio its length, and the podcast feed its real byte length and type', async () => {
    const res = await upload(MP3, 'audio/mpeg');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: 'audio/mpeg', size: MP3.length, duration: 9 });
    const url = res.body.url as string;
    expect(url.startsWith(`${double.url}/f/`)).toBe(true);
    const created = await admin.post('/api/podcast-episodes', {
      title: 'Stored on UploadThing',
      slug: 'stored-on-uploadthing',
      audioUrl: url,
      duration: res.body.duration,
      isPublished: true,
      episodeNumber: 7,
    });
    expect(created.status).toBe(201);
    const feed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (n) => n === 'item' }).parse(await (await fetch(`${server.url}/podcast.xml`)).text());
    const item = (feed.rss.channel.item as Record<string, any>[]).find((i) => i.title === 'Stored on UploadThing')!; // eslint-disable-line @typescript-eslint/no-explicit-any
    // Through the site's counting address, which leads to the file at UploadThing.
    expect(item.enclosure).toEqual({ '@_url': expect.stringMatching(new RegExp(`^${server.url}/podcast/e/\\d+/`)), '@_length': String(MP3.length), '@_type': 'audio/mpeg' });
    expect((await fetch(item.enclosure['@_url'] as string, { redirect: 'manual' })).headers.get('location')).toBe(url);
  });

  it('still check type and size on our server first: nothing bad reaches UploadThing', async () => {
    const before = double.files.size;
    expect((await upload('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml')).status).toBe(415);
    expect((await upload(MP3, 'image/png')).status).toBe(415);
    expect((await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png')).status).toBe(413);
    expect(double.files.size).toBe(before);
  });

  it('answer 502 with a clear message when UploadThing fails, and record nothing', async () => {
    const rows = server.db.select().from(storedFiles).all().length;
    double.failNext(5);
    const res = await upload(PNG, 'image/png');
    double.failNext(0);
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('The file could not be stored on UploadThing. Please try again.');
    expect(server.db.select().from(storedFiles).all().length).toBe(rows);
    // The next upload goes through.
    expect((await upload(PNG, 'image/png')).status).toBe(200);
  });

  it('never send the token or its API key to a browser', async () => {
    const res = await upload(PNG, 'image/png');
    const apiKey = JSON.parse(Buffer.from(double.token, 'base64').toString()).apiKey as string;
    const bodies = [JSON.stringify(res.body)];
    for (const path of ['/', '/blog', '/admin/dashboard', '/admin/blog/new']) {
      const page = await admin.get(path);
      expect(page.status, path).toBe(200);
      bodies.push(page.text);
    }
    for (const text of bodies) {
      expect(text).not.toContain(double.token);
      expect(text).not.toContain(apiKey);
    }
  });

  it('are refused by UploadThing when the token is wrong (its signature does not verify)', async () => {
    const wrong = await startServer({ UPLOADTHING_TOKEN: uploadThingToken('sk_some_other_key', 'testapp'), UPLOADTHING_INGEST_URL: double.url });
    try {
      const as = await clientAs(wrong, 'admin');
      const refusals = double.refusals.length;
      const res = await upload(PNG, 'image/png', as);
      expect(res.status).toBe(502);
      expect(double.refusals.slice(refusals)).toEqual(['Invalid signature']);
    } finally {
      await wrong.stop();
    }
  });
});
