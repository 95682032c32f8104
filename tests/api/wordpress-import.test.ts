import { eq } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blogPosts } from '#db/schema/content.ts';
import { Client, createPost, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import { rawPostStatus } from '#tests/support/raw-http.ts';
import type { TestServer } from '#tests/support/server.ts';

const FIXTURE = readFileSync(new URL('../fixtures/wordpress-export.xml', import.meta.url), 'utf8');
const IMPORTED_SLUGS = ['why-i-dont-write-roadmaps-anymore', 'five-questions-database', 'notes-on-hiring-draft-unfinished', 'quarterly-review-template'];
const SKIPPED_SLUGS = ['old-announcement__trashed', 'board', 'blog'];

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

interface Upload {
  xml: string | Uint8Array;
  name?: string;
  type?: string;
  /** Who sends it: the admin unless given. */
  as?: Client;
  headers?: Record<string, string>;
}

/** POSTs a multipart form with the field `file`, as the admin's file picker does. */
async function upload({ xml, name = 'export.xml', type = 'text/xml', as = admin, headers = {} }: Upload) {
  const form = new FormData();
  form.append('file', new Blob([xml as BlobPart], { type }), name);
  return as.request('POST', '/api/wordpress/import', form, headers);
}

const count = () => server.db.select().from(blogPosts).all().length;
const row = (slug: string) => server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).get();

/** A minimal valid export holding one published post with the given slug. */
const wxr = (slug: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>${extra}
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><title>Blog</title><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Post ${slug}</title><content:encoded><![CDATA[<p>Hello</p>]]></content:encoded>
<wp:post_name>${slug}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:post_date_gmt>2022-02-02 10:00:00</wp:post_date_gmt></item>
</channel></rss>`;

describe('importing a WordPress export', () => {
  it('imports published posts, drafts and pages (as drafts), skipping attachments, menu items, trash and duplicate slugs', async () => {
    const before = count();
    const res = await upload({ xml: FIXTURE, name: 'jordan.WordPress.2024-03-02.xml' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 5, updated: 0, skipped: 4, failed: 0, keptPrivate: [{ title: 'Quarterly Review Template', slug: 'quarterly-review-template', reason: 'private' }] });
    expect(count()).toBe(before + 5);
    expect(row('about')).toMatchObject({ isPublished: false, category: 'Page' });
    for (const slug of SKIPPED_SLUGS) expect(row(slug)).toBeUndefined();
  });

  it('stores title, slug, content, excerpt, first category, dates and the importing admin', () => {
    const roadmaps = row('why-i-dont-write-roadmaps-anymore')!;
    expect(roadmaps).toMatchObject({
      title: 'Why I Don’t Write Roadmaps Anymore & What I Do Instead',
      excerpt: 'Twelve-month roadmaps turn into fiction by March. Here’s the quarterly bets format I use instead.',
      category: 'Leadership',
      isPublished: true,
      authorId: admin.user.id,
      featuredImage: null,
    });
    expect(roadmaps.createdAt.toISOString()).toBe('2023-04-12T14:30:00.000Z');
    expect(roadmaps.publishedAt?.toISOString()).toBe('2023-04-12T14:30:00.000Z');
    expect(roadmaps.readTime).toBe(1);
    // Classic-editor text gets paragraphs; entities become characters; the caption a figure.
    expect(roadmaps.content).toContain('<p>For years I wrote a twelve-month roadmap every January. By March it was fiction – and everybody knew it.</p>');
    expect(roadmaps.content).toContain('<h2>Bets, not promises</h2><p>We write down three bets for the quarter.<br />Each one names the customer it’s for &amp; how we’ll know it worked.</p>');
    expect(roadmaps.content).toContain('<ul><li>One bet per team</li><li>A kill date for every bet</li></ul>');
    expect(roadmaps.content).toContain('<figcaption>The board we use</figcaption>');
    expect(roadmaps.content).toContain('<a href="https://example.com/bets" target="_blank" rel="noopener noreferrer nofollow">my notes on bets</a>');

    const database = row('five-questions-database')!;
    expect(database).toMatchObject({ title: 'Five Questions Before You Pick a Database', category: 'Technology', isPublished: true, excerpt: null });
    expect(database.content).toBe(
      '<p>The database you pick in month two decides <strong>what reports you can sell</strong> in year two.</p><h3>1. Who asks the questions?</h3><p style="text-align:center">Hint: it’s rarely the engineers.</p>',
    );
    expect(database.content).not.toMatch(/script|alert|wp:paragraph/);

    // A draft without a slug gets one from its title; 'Uncategorized' is the site's General.
    const draft = row('notes-on-hiring-draft-unfinished')!;
    expect(draft).toMatchObject({ title: 'Notes on Hiring: Draft & Unfinished', isPublished: false, publishedAt: null, category: 'General' });
    expect(draft.content).toBe('<p>Hire for the problems you have now, not the company you hope to be.</p>');
    expect(draft.createdAt.toISOString()).toBe('2024-01-20T18:45:00.000Z');

    expect(row('quarterly-review-template')).toMatchObject({ isPublished: false, publishedAt: null, category: 'Leadership' });
  });

  it('shows imported drafts only to admins', async () => {
    const anon = await new Client(server).get('/api/blog-posts');
    const slugs = (anon.body as { slug: string }[]).map((p) => p.slug);
    expect(slugs).toEqual(expect.arrayContaining(['why-i-dont-write-roadmaps-anymore', 'five-questions-database']));
    expect(slugs).not.toContain('notes-on-hiring-draft-unfinished');
    expect((await new Client(server).get('/api/blog-posts/slug/five-questions-database')).status).toBe(200);
  });

  it('makes imported published posts findable by the public blog search', async () => {
    const res = await new Client(server).get('/api/blog-posts/search?q=quarterly%20bets');
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { slug: string }) => p.slug)).toEqual(['why-i-dont-write-roadmaps-anymore']);
    const draft = await new Client(server).get('/api/blog-posts/search?q=Notes%20on%20Hiring');
    expect(draft.body.items).toEqual([]);
  });

  it('skips everything on a second import of the same file', async () => {
    const before = count();
    const res = await upload({ xml: FIXTURE });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, updated: 0, skipped: 9, failed: 0, keptPrivate: [] });
    expect(count()).toBe(before);
    for (const slug of IMPORTED_SLUGS) {
      expect(server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).all()).toHaveLength(1);
    }
  });

  it('skips a post whose slug already exists on the site and leaves that post alone', async () => {
    const existing = createPost(server, admin.user.id, { title: 'Mine' });
    const res = await upload({ xml: wxr(existing.slug) });
    expect(res.body).toMatchObject({ imported: 0, skipped: 1, keptPrivate: [] });
    expect(row(existing.slug)?.title).toBe('Mine');
  });

  it("imports a post without a title as '(no title)', as WordPress shows it", async () => {
    const xml = wxr('untitled-on-wordpress').replace('<title>Post untitled-on-wordpress</title>', '<title></title>');
    const res = await upload({ xml });
    expect(res.body).toMatchObject({ imported: 1, failed: 0 });
    expect(row('untitled-on-wordpress')?.title).toBe('(no title)');
  });

  it('accepts an export with no items', async () => {
    const xml = '<?xml version="1.0"?><rss version="2.0"><channel><title>Empty</title></channel></rss>';
    const res = await upload({ xml });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 0, skipped: 0, keptPrivate: [] });
  });

  it('imports a password-protected post as a draft, listed in the report, whose text is on no public page, feed or API answer', async () => {
    const secret = 'The protected launch numbers are 4,217 customers';
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><title>Blog</title><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Members only numbers</title><content:encoded><![CDATA[<p>${secret}</p>]]></content:encoded>
<excerpt:encoded><![CDATA[${secret} (excerpt)]]></excerpt:encoded>
<wp:post_name>members-only-numbers</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:post_password><![CDATA[hunter2]]></wp:post_password>
<wp:post_date_gmt>2022-02-02 10:00:00</wp:post_date_gmt></item>
</channel></rss>`;
    const res = await upload({ xml });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 1, skipped: 0, keptPrivate: [{ title: 'Members only numbers', slug: 'members-only-numbers', reason: 'password-protected' }] });
    expect(row('members-only-numbers')).toMatchObject({ isPublished: false, publishedAt: null });
    const anonymous = new Client(server);
    expect((await anonymous.get('/blog/members-only-numbers')).status).toBe(404);
    expect((await anonymous.get('/api/blog-posts/slug/members-only-numbers')).status).toBe(404);
    for (const path of ['/blog', '/blog?q=protected', '/', '/rss.xml', '/sitemap.xml', '/api/blog-posts', '/api/blog-posts/search?q=protected']) {
      const page = await anonymous.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain('4,217');
      expect(page.text, path).not.toContain('members-only-numbers');
    }
  });
});

describe('a long import', () => {
  /** An export of `n` small published posts. */
  const many = (n: number, prefix: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Many</title><wp:base_site_url>https://many.example</wp:base_site_url>
${Array.from({ length: n }, (_, i) => `<item><title>${prefix} ${i}</title><content:encoded><![CDATA[<p>Post ${i} of many.</p>]]></content:encoded><wp:post_id>${i + 1}</wp:post_id><wp:post_name>${prefix}-${i}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>`).join('\n')}
</channel></rss>`;

  it('shows its progress while it runs, refuses a second import meanwhile with 409, and ends with items done = total', async () => {
    const first = upload({ xml: many(1500, 'many') });
    let seen: { status: string; done: number; total: number } | null = null;
    for (let i = 0; i < 200 && seen?.status !== 'running'; i++) {
      seen = (await admin.request('GET', '/api/wordpress/import')).body;
      if (seen?.status !== 'running') await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen?.status).toBe('running');
    const second = await upload({ xml: wxr('while-another-runs') });
    expect(second.status).toBe(409);
    expect(row('while-another-runs')).toBeUndefined();
    expect((await first).body).toMatchObject({ imported: 1500, failed: 0 });
    expect((await admin.request('GET', '/api/wordpress/import')).body).toMatchObject({ status: 'done', done: 1500, total: 1500, imported: 1500 });
    // Only admins see it.
    expect((await user.request('GET', '/api/wordpress/import')).status).toBe(403);
  });
});

describe('who may import', () => {
  it('refuses an anonymous visitor with 401 and a non-admin with 403, writing nothing', async () => {
    const before = count();
    expect((await upload({ xml: wxr('guard-anon'), as: new Client(server) })).status).toBe(401);
    expect((await upload({ xml: wxr('guard-user'), as: user })).status).toBe(403);
    expect(count()).toBe(before);
  });

  it('refuses a cross-site request with 403', async () => {
    const res = await upload({ xml: wxr('cross-site'), headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(row('cross-site')).toBeUndefined();
  });
});

describe('refusing bad files, writing nothing', () => {
  it.each([
    ['a .txt file name', { name: 'export.txt', type: 'text/plain' }],
    ['an .xml name with an image type', { name: 'export.xml', type: 'image/png' }],
    ['an .xml.exe name', { name: 'export.xml.exe', type: 'application/octet-stream' }],
  ])('answers 415 for %s', async (_label, opts) => {
    const before = count();
    const res = await upload({ xml: wxr('wrong-type'), ...opts });
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/\.xml/);
    expect(count()).toBe(before);
  });

  it('accepts application/xml, application/rss+xml and an .xml file of unknown type', async () => {
    expect((await upload({ xml: wxr('typed-app-xml'), type: 'application/xml' })).body).toMatchObject({ imported: 1, skipped: 0, keptPrivate: [] });
    expect((await upload({ xml: wxr('typed-rss-xml'), type: 'application/rss+xml' })).body).toMatchObject({ imported: 1, skipped: 0, keptPrivate: [] });
    // A browser that does not know the type sends application/octet-stream.
    expect((await upload({ xml: wxr('typed-none'), type: '' })).body).toMatchObject({ imported: 1, skipped: 0, keptPrivate: [] });
  });

  it('answers 415 for a JSON body', async () => {
    const res = await admin.post('/api/wordpress/import', { file: wxr('json-body') });
    expect(res.status).toBe(415);
  });

  it('answers 400 for a form without the file field', async () => {
    const form = new FormData();
    form.append('other', 'x');
    const res = await admin.request('POST', '/api/wordpress/import', form);
    expect(res.status).toBe(400);
  });

  it('answers 413 for a file over 100 MB', async () => {
    const before = count();
    const padding = `<!-- ${'x'.repeat(100 * 1024 * 1024)} -->`;
    const res = await upload({ xml: wxr('too-big', padding) });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/100 MB/);
    expect(count()).toBe(before);
    expect(row('too-big')).toBeUndefined();
  });

  // These two talk HTTP over a bare socket: sending exactly what the server reads makes the
  // exchange deterministic.
  const rawPost = (headers: string, body: Buffer | null) => rawPostStatus(server, '/api/wordpress/import', admin.cookie, `Content-Type: multipart/form-data; boundary=xyz\r\n${headers}`, body);

  it('answers 413 as soon as the declared Content-Length is over the limit, without reading the body', async () => {
    expect(await rawPost(`Content-Length: ${101 * 1024 * 1024}\r\n`, null)).toBe(413);
  });

  it('answers 413 for a body without Content-Length once it passes the limit', async () => {
    const over = 100 * 1024 * 1024 + 64 * 1024 + 1;
    // One chunk of that size, left unfinished: the server must stop reading on its own.
    const body = Buffer.concat([Buffer.from(`${over.toString(16)}\r\n`), Buffer.alloc(over, 'a')]);
    expect(await rawPost('Transfer-Encoding: chunked\r\n', body)).toBe(413);
  });

  it('refuses an entity-expansion (billion laughs) DOCTYPE with 400', async () => {
    const before = count();
    const bomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><item><title>&lol9;</title><content:encoded>&lol9;</content:encoded>
<wp:post_name>laughs</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item></channel></rss>`;
    const res = await upload({ xml: bomb });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/entit/i);
    expect(count()).toBe(before);
    expect(row('laughs')).toBeUndefined();
  });

  it('refuses an external entity (XXE) with 400', async () => {
    const xxe = wxr('xxe', '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>').replace('<p>Hello</p>', '&xxe;');
    const res = await upload({ xml: xxe });
    expect(res.status).toBe(400);
    expect(row('xxe')).toBeUndefined();
  });

  it('keeps a post that merely talks about <!ENTITY inside its content', async () => {
    const xml = wxr('about-xxe').replace('<p>Hello</p>', '<p>Never allow <code>&lt;!ENTITY</code> in uploads: <!ENTITY x "y"></p>');
    const res = await upload({ xml });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
  });

  it('answers 400 for malformed XML and writes nothing, not even the posts before the error', async () => {
    const before = count();
    // Two complete items, then a broken tag: a streaming importer would have written two posts.
    const broken = FIXTURE.replace(/five-questions-database/g, 'broken-one')
      .replace(/why-i-dont-write-roadmaps-anymore/g, 'broken-two')
      .replace('<wp:post_type><![CDATA[page]]></wp:post_type>', '<wp:post_type><![CDATA[page]]></wp:post_typ>');
    const res = await upload({ xml: broken });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not well-formed XML/);
    expect(count()).toBe(before);
    expect(row('broken-one')).toBeUndefined();
    expect(row('broken-two')).toBeUndefined();
  });

  it.each([
    ['plain text', 'this is not xml at all'],
    ['an RSS file without a channel', '<?xml version="1.0"?><rss version="2.0"></rss>'],
    ['another XML document', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'],
  ])('answers 400 for %s', async (_label, xml) => {
    const before = count();
    const res = await upload({ xml });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(count()).toBe(before);
  });

  it('answers 400 for an empty file', async () => {
    expect((await upload({ xml: '' })).status).toBe(400);
  });
});
