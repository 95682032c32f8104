// Responsive images: an uploaded 4000x3000 JPEG gets WebP and AVIF copies no wider than
// 1600 px, made in the background, and the post page offers them with the image's size.
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageVariants } from '#db/schema/storage.ts';
import { Client, clientAs, serverForFile, uploadFile, unique, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let photo: Buffer;

serverForFile(async (started) => {
  server = started;
  admin = await clientAs(server, 'admin');
  // A photo-like 4000x3000 JPEG of almost 1 MB.
  photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(2.5)
    .jpeg({ quality: 80 })
    .toBuffer();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function variantsDone(url: string, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const row = server.db.select().from(imageVariants).where(eq(imageVariants.url, url)).get();
    if (row?.status === 'done') return row;
    if (Date.now() > end) throw new Error(`no copies of ${url}: ${JSON.stringify(row)}`);
    await sleep(200);
  }
}

/** Every `<source>` of the page for images whose name starts with `base`: type and width candidates. */
function sourcesFor(html: string, base: string) {
  return [...html.matchAll(/<source type="([^"]+)" srcset="([^"]+)" sizes="[^"]+">/g)]
    .filter((m) => m[2].includes(base))
    .map((m) => ({ type: m[1], candidates: m[2].split(', ').map((c) => ({ url: c.split(' ')[0], width: Number(c.split(' ')[1].slice(0, -1)) })) }));
}

describe('an uploaded photo', () => {
  it('answers the upload at once, then gets WebP and AVIF copies at 480, 960 and 1600 px in the background', async () => {
    const up = await uploadFile(admin, photo, 'image/jpeg');
    expect(up.status).toBe(200);
    const url = up.body.url as string;
    const row = await variantsDone(url);
    expect(row).toMatchObject({ width: 4000, height: 3000, widths: [480, 960, 1600] });
    for (const [w, type] of [
      [480, 'image/webp'],
      [1600, 'image/avif'],
    ] as const) {
      const res = await fetch(`${server.url}${url.replace(/\.jpg$/, `-${w}.${type.slice(6)}`)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(w);
    }
  });

  it('is offered on the post page as a cover and in the body: sources no wider than 1600 px, the size given, the original kept', async () => {
    const up = await uploadFile(admin, photo, 'image/jpeg');
    const url = up.body.url as string;
    const base = url.replace(/\.jpg$/, '');
    await variantsDone(url);
    const post = await admin.post('/api/blog-posts', {
      title: `Photos ${unique()}`,
      slug: unique('photos-'),
      content: `<p>Look:</p><p><img src="${url}" alt="The harbour at dawn"></p>`,
      featuredImage: url,
      isPublished: true,
    });
    expect(post.status).toBe(201);
    const html = (await new Client(server).get(`/blog/${post.body.slug as string}`)).text;

    const sources = sourcesFor(html, base);
    // Two pictures (cover and body), each with an AVIF and a WebP source.
    expect(sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp', 'image/avif', 'image/webp']);
    for (const s of sources) {
      expect(s.candidates.map((c) => c.width)).toEqual([480, 960, 1600]);
      expect(Math.max(...s.candidates.map((c) => c.width))).toBeLessThanOrEqual(1600);
    }
    expect(html).toMatch(new RegExp(`<img src="${url}" alt="" width="4000" height="3000"[^>]*fetchpriority="high"`));
    expect(html).toMatch(new RegExp(`<picture>(<source [^>]+>){2}<img width="4000" height="3000"[^>]* src="${url}" alt="The harbour at dawn"[^>]* loading="lazy"`));

    // Its card on the home page and on /blog offers the WebP copies too.
    for (const list of ['/', '/blog']) expect((await new Client(server).get(list)).text).toContain(`srcSet="${base}-480.webp 480w, ${base}-960.webp 960w, ${base}-1600.webp 1600w"`);

    // What a phone at 1x takes: the 480 px copy, far below the original.
    const phone = await fetch(`${server.url}${sources[0].candidates[0].url}`);
    expect((await phone.arrayBuffer()).byteLength).toBeLessThan(150 * 1024);
    expect(photo.byteLength).toBeGreaterThan(500 * 1024);
  });

  it('an image from elsewhere is left as it is', async () => {
    const post = await admin.post('/api/blog-posts', {
      title: `Remote ${unique()}`,
      slug: unique('remote-'),
      content: '<p><img src="https://images.example.com/a.jpg" alt="Remote"></p>',
      isPublished: true,
    });
    const html = (await new Client(server).get(`/blog/${post.body.slug as string}`)).text;
    expect(html).toMatch(/<p><img [^>]*src="https:\/\/images\.example\.com\/a\.jpg" alt="Remote"/);
    expect(html).not.toContain('<source');
  });
});
