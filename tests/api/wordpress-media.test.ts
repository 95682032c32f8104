// The files a WordPress export points at: the import never fetches from this machine or the
// private network unless the operator allows it (IMPORT_ALLOW_PRIVATE_HOSTS), and a featured
// image it cannot fetch stays at its old address, named in the report, until a later import can.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts } from '#db/schema/content.ts';
import { freePort } from '#scripts/lib/net.ts';
import { clientAs, type SessionClient } from '#tests/support/factories.ts';
import { listen } from '#tests/support/double-http.ts';
import { DEMO_MP3 } from '#tests/support/media.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

/** An export of one post with a featured image, an inline image and a podcast episode, all at `origin`. */
function exportOf(origin: string, { featured = `${origin}/wp-content/uploads/2024/01/cover.jpg`, n = '' } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old blog</title><link>${origin}</link>
<wp:base_site_url>${origin}</wp:base_site_url><wp:base_blog_url>${origin}</wp:base_blog_url>
<item><title>Cover</title><wp:post_id>5</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status>
<wp:attachment_url>${featured}</wp:attachment_url></item>
<item><title>With pictures</title><content:encoded><![CDATA[<p>Hello <img src="${origin}/wp-content/uploads/2024/01/inline.jpg" alt="Inline" /></p>]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>6</wp:post_id><wp:post_name>with-pictures${n}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>5</wp:meta_value></wp:postmeta></item>
<item><title>Episode one</title><content:encoded><![CDATA[<p>Notes</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>7</wp:post_id><wp:post_name>episode-one${n}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:postmeta><wp:meta_key>enclosure</wp:meta_key><wp:meta_value><![CDATA[${origin}/media/episode-1.mp3
1000
audio/mpeg
]]></wp:meta_value></wp:postmeta></item>
</channel></rss>`;
}

async function importExport(admin: SessionClient, xml: string, downloadAudio = true) {
  const form = new FormData();
  if (downloadAudio) form.append('downloadAudio', '1');
  form.append('file', new Blob([xml], { type: 'text/xml' }), 'old.WordPress.xml');
  const res = await admin.request('POST', '/api/wordpress/import', form);
  expect(res.status).toBe(200);
  const latest = await admin.get('/api/wordpress/import');
  const report = await admin.get(`/api/wordpress/import/${(latest.body as { id: number }).id}/report`);
  return { result: res.body as { media: { downloaded: number; failed: number } }, report: report.text };
}

/** An old site on this machine that answers every file and counts what it was asked. */
async function oldSite(port?: number) {
  const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3b6cf6' } })
    .jpeg()
    .toBuffer();
  const mp3 = readFileSync(DEMO_MP3);
  const requests: string[] = [];
  const site = createServer((req, res) => {
    requests.push(req.url ?? '/');
    const body = req.url?.endsWith('.mp3') ? mp3 : jpeg;
    res.writeHead(200, { 'Content-Type': req.url?.endsWith('.mp3') ? 'audio/mpeg' : 'image/jpeg', 'Content-Length': body.length }).end(body);
  });
  const { port: listening, stop } = await listen(site, port);
  return { origin: `http://127.0.0.1:${listening}`, port: listening, requests, stop };
}

describe('media on private addresses (IMPORT_ALLOW_PRIVATE_HOSTS unset)', () => {
  let server: TestServer;
  let admin: SessionClient;
  let site: Awaited<ReturnType<typeof oldSite>>;
  beforeAll(async () => {
    server = await startServer();
    admin = await clientAs(server, 'admin');
    site = await oldSite();
  });
  afterAll(async () => {
    await server?.stop();
    await site?.stop();
  });

  it('fetches nothing from 127.0.0.1 or the metadata address, for any kind of file, and says so without telling open ports from closed ones', async () => {
    const closed = await freePort();
    const { result, report } = await importExport(admin, exportOf(site.origin, { featured: 'http://169.254.169.254/latest/meta-data/cover.jpg' }));
    expect(site.requests).toEqual([]);
    expect(result.media.downloaded).toBe(0);
    // The inline image and the audio on 127.0.0.1, the featured image on the metadata address.
    expect(result.media.failed).toBe(3);
    expect(report).toContain(`${site.origin}/wp-content/uploads/2024/01/inline.jpg: refused: 127.0.0.1 is a loopback, private or link-local address`);
    expect(report).toContain('http://169.254.169.254/latest/meta-data/cover.jpg: refused: 169.254.169.254 is a loopback, private or link-local address');
    expect(report).toContain(`${site.origin}/media/episode-1.mp3: refused`);

    // A port where nothing listens reads the same as one where the old site answers.
    const other = await importExport(admin, exportOf(`http://127.0.0.1:${closed}`, { n: '-2' }));
    expect(other.report).toContain(`http://127.0.0.1:${closed}/wp-content/uploads/2024/01/inline.jpg: refused: 127.0.0.1 is a loopback, private or link-local address`);
    expect(other.report).not.toMatch(/ECONNREFUSED|could not connect/);

    // A name that resolves to loopback is refused too.
    const named = await importExport(admin, exportOf(`http://localhost:${site.port}`, { n: '-3' }));
    expect(named.report).toContain('refused: localhost is a loopback, private or link-local address');
    expect(site.requests).toEqual([]);
  });
});

describe('a featured image whose old host is unreachable', () => {
  let server: TestServer;
  let admin: SessionClient;
  beforeAll(async () => {
    server = await startServer({ IMPORT_ALLOW_PRIVATE_HOSTS: 'true' });
    admin = await clientAs(server, 'admin');
  });
  afterAll(() => server?.stop());

  it('keeps its old address and is named in the report; a later import that reaches the host brings it here', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const cover = `${origin}/wp-content/uploads/2024/01/cover.jpg`;
    const first = await importExport(admin, exportOf(origin), false);
    const post = () => server.db.select().from(blogPosts).where(eq(blogPosts.slug, 'with-pictures')).get()!;
    expect(post().featuredImage).toBe(cover);
    expect(first.report).toContain(`its featured image stays at its old address ${cover}`);
    expect(first.report).toContain(`${cover}: could not connect`);
    const page = await (await fetch(`${server.url}/blog/with-pictures`)).text();
    expect(page).toContain(cover);

    const site = await oldSite(port);
    try {
      const again = await importExport(admin, exportOf(origin), false);
      expect(post().featuredImage).toMatch(/^\/uploads\/.+\.jpg$/);
      expect(again.report).toContain('its featured image, left at its old address before, is now served here');
      expect(site.requests).toContain('/wp-content/uploads/2024/01/cover.jpg');
      expect((await fetch(`${server.url}${post().featuredImage}`)).status).toBe(200);
    } finally {
      await site.stop();
    }
  });
});
