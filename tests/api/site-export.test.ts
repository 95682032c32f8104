// The whole-site export (Admin → Settings → Export, GET /api/admin/export): a zip an owner can
// take anywhere, read here with yauzl as any unzip tool would.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { orders } from '#db/schema/commerce.ts';
import { eq } from 'drizzle-orm';
import { Client, clientAs, createEpisode, createPost, createSubscriber, serverWithClients, uploadFile, type SessionClient } from '#tests/support/factories.ts';
import { PNG_1X1 } from '#tests/support/media.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import { newsletterSubscribers, postTags } from '#db/schema/content.ts';
import { subscriberTags, tags } from '#db/schema/audience.ts';

/** Every entry of a zip, by name, with its bytes. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const file = join(tmpdir(), `export-${process.pid}-${Date.now()}.zip`);
  writeFileSync(file, bytes);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))));
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
// Files of its own: the uploads and product-file folders are otherwise shared by the test files.
const files = mkdtempSync(join(tmpdir(), 'site-export-'));
serverWithClients((s) => ({ server, admin, user } = s), { UPLOADS_DIR: join(files, 'uploads'), PRIVATE_FILES_DIR: join(files, 'private') });

describe('GET /api/admin/export', () => {
  it('is the admin’s only: 401 without a session, 403 for a user', async () => {
    expect((await new Client(server).get('/api/admin/export')).status).toBe(401);
    expect((await user.get('/api/admin/export')).status).toBe(403);
  });

  it('streams a zip holding every post and episode (HTML and JSON), the media, product files, subscribers, orders and the site document', async () => {
    const post = createPost(server, admin.user.id, { slug: 'exported-post', title: 'Exported post', content: '<p>Every word of it</p>', isPublished: true, publishedAt: new Date() });
    server.db.insert(postTags).values({ postId: post.id, slug: 'leadership', name: 'Leadership' }).run();
    createPost(server, admin.user.id, { slug: 'draft-post', title: 'A draft', content: '<p>Not yet</p>', isPublished: false });
    createEpisode(server, { slug: 'exported-episode', title: 'Exported episode', showNotes: '<p>Notes</p>' });
    const image = await uploadFile(admin, PNG_1X1, 'image/png');
    expect(image.status).toBe(200);
    const imageUrl = String(image.body.url);
    // A product file as the products screen stores it (below PRIVATE_FILES_DIR).
    const productFile = join(files, 'private', '2026', 'guide.pdf');
    mkdirSync(dirname(productFile), { recursive: true });
    writeFileSync(productFile, '%PDF-1.4 the guide');
    const reader = createSubscriber(server, { email: 'reader@example.com', name: 'Rea Der', isActive: true, confirmedAt: new Date() });
    createSubscriber(server, { email: 'gone@example.com', name: 'Gone', isActive: false, unsubscribedAt: new Date() });
    createSubscriber(server, { email: 'bounced@example.com', isActive: true, confirmedAt: new Date(), bouncedAt: new Date() });
    const [vip, coach] = server.db
      .insert(tags)
      .values([{ name: 'VIP' }, { name: 'Coaching, 1:1' }])
      .returning()
      .all();
    server.db
      .insert(subscriberTags)
      .values([
        { subscriberId: reader.id, tagId: vip.id },
        { subscriberId: reader.id, tagId: coach.id },
      ])
      .run();
    server.db.insert(orders).values({ productName: 'The guide', amount: 2900, status: 'succeeded', paymentIntentId: 'pi_export_1', customerEmail: 'buyer@example.com' }).run();

    const res = await fetch(`${server.url}/api/admin/export`, { headers: { Cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="site-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = await unzip(Buffer.from(await res.arrayBuffer()));

    expect(zip.get('posts/exported-post.html')!.toString()).toBe('<p>Every word of it</p>');
    const meta = JSON.parse(zip.get('posts/exported-post.json')!.toString());
    expect(meta).toMatchObject({ title: 'Exported post', slug: 'exported-post', isPublished: true, tags: ['Leadership'] });
    expect(meta.content).toBeUndefined();
    expect(JSON.parse(zip.get('posts/draft-post.json')!.toString())).toMatchObject({ isPublished: false });
    expect(zip.get('episodes/exported-episode.html')!.toString()).toBe('<p>Notes</p>');
    expect(JSON.parse(zip.get('episodes/exported-episode.json')!.toString())).toMatchObject({ title: 'Exported episode' });
    // The uploaded image, byte for byte, under the path of its address.
    const mediaName = `media/${imageUrl.replace(/^.*\/uploads\//, '')}`;
    expect(zip.get(mediaName)?.equals(PNG_1X1)).toBe(true);
    expect(zip.get('product-files/2026/guide.pdf')!.toString()).toBe('%PDF-1.4 the guide');
    const subscribers = zip.get('subscribers.csv')!.toString();
    expect(subscribers.split('\r\n')[0]).toBe('email,name,status,subscribed_at,source,tags');
    expect(subscribers).toMatch(/reader@example\.com,Rea Der,active,.*"VIP/);
    expect(subscribers).toMatch(/gone@example\.com,Gone,unsubscribed,/);
    expect(zip.get('orders.csv')!.toString()).toMatch(/The guide,29\.00,USD,succeeded,buyer@example\.com/);
    expect(zip.get('bookings.csv')!.toString()).toMatch(/^id,type,start,end,name,email,status/);
    expect(JSON.parse(zip.get('site.json')!.toString())).toHaveProperty('brand');
    expect(JSON.parse(zip.get('export.json')!.toString())).toMatchObject({ posts: 2, episodes: 1, productFiles: 1, orders: 1 });

    // Who took it is in the audit log.
    const audit = await admin.get('/api/admin/audit?action=export+site');
    expect(JSON.stringify(audit.body)).toContain('export site');

    // Its subscribers.csv imports into an empty site with the same statuses and tags.
    const empty = await startServer();
    try {
      const owner = await clientAs(empty, 'admin');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(zip.get('subscribers.csv')!)], { type: 'text/csv' }), 'subscribers.csv');
      const started = await owner.request('POST', '/api/admin/subscribers/import', form);
      expect(started.status).toBe(202);
      const until = Date.now() + 30_000;
      let run = await owner.get(`/api/admin/subscribers/import/${started.body.id}`);
      while (run.body.status === 'running' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        run = await owner.get(`/api/admin/subscribers/import/${started.body.id}`);
      }
      expect(run.body).toMatchObject({ status: 'done', total: 3, added: 1, suppressed: 2, invalid: [] });
      const moved = (await owner.get('/api/newsletter/subscribers')).body as { email: string; status: string }[];
      expect(Object.fromEntries(moved.map((m) => [m.email, m.status]))).toEqual({ 'reader@example.com': 'active', 'gone@example.com': 'unsubscribed', 'bounced@example.com': 'bounced' });
      const tagged = empty.db
        .select({ name: tags.name })
        .from(subscriberTags)
        .innerJoin(tags, eq(tags.id, subscriberTags.tagId))
        .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, subscriberTags.subscriberId))
        .where(eq(newsletterSubscribers.email, 'reader@example.com'))
        .all();
      expect(tagged.map((t) => t.name).sort()).toEqual(['Coaching, 1:1', 'VIP']);
    } finally {
      await empty.stop();
    }
  }, 90_000);
});
