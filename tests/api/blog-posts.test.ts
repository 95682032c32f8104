import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blogPosts, comments } from '#db/schema/content.ts';
import { Client, createComment, createPost, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { ids } from '#tests/support/rows.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

/** A body the post editor would send. */
const postBody = (over: Record<string, unknown> = {}) => ({
  title: 'A Post Title',
  slug: unique('post-'),
  excerpt: 'A short summary',
  content: '<p>Some content</p>',
  featuredImage: '',
  category: 'Leadership',
  isPublished: false,
  ...over,
});

const rowBySlug = (slug: string) => server.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).get();
const rowById = (id: number) => server.db.select().from(blogPosts).where(eq(blogPosts.id, id)).get();
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('creating a post: guards', () => {
  it('refuses an anonymous visitor with 401 and writes nothing', async () => {
    const body = postBody();
    const res = await new Client(server).post('/api/blog-posts', body);
    expect(res.status).toBe(401);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it('refuses a logged-in non-admin with 403 and writes nothing', async () => {
    const body = postBody();
    const res = await user.post('/api/blog-posts', body);
    expect(res.status).toBe(403);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it('refuses a write from a foreign Origin with 403 and writes nothing', async () => {
    const body = postBody();
    const res = await admin.request('POST', '/api/blog-posts', body, { Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it('refuses PUT and DELETE from a foreign Origin and leaves the post as it was', async () => {
    const post = createPost(server, admin.user.id, { title: 'Untouched' });
    const put = await admin.request('PUT', `/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: 'Hijacked' }), { Origin: 'https://evil.example' });
    expect(put.status).toBe(403);
    const del = await admin.request('DELETE', `/api/blog-posts/${post.id}`, undefined, { Origin: 'https://evil.example' });
    expect(del.status).toBe(403);
    expect(rowById(post.id)?.title).toBe('Untouched');
  });
});

describe('creating a post: validation', () => {
  it.each([
    ['a missing title', { title: undefined }, 'title', 'Title is required'],
    ['an empty title', { title: '' }, 'title', 'Title is required'],
    ['a blank title', { title: '   ' }, 'title', 'Title is required'],
    ['a 256-character title', { title: 'x'.repeat(256) }, 'title', 'Title too long'],
    ['a missing slug', { slug: undefined }, 'slug', 'Slug is required'],
    ['an empty slug', { slug: '' }, 'slug', 'Slug is required'],
    ['a 256-character slug', { slug: 's'.repeat(256) }, 'slug', 'Slug too long'],
    ['a 501-character excerpt', { excerpt: 'e'.repeat(501) }, 'excerpt', 'Excerpt too long'],
    ['a missing content', { content: undefined }, 'content', 'Content is required'],
    ['an empty content', { content: '' }, 'content', 'Content is required'],
    ['a featured image that is not a URL', { featuredImage: 'not a url' }, 'featuredImage', 'Invalid image URL'],
    ['a javascript: featured image', { featuredImage: 'javascript:alert(1)' }, 'featuredImage', 'Invalid image URL'],
  ])('refuses %s with 400 and the spec message', async (_label, over, field, message) => {
    const body = postBody(over);
    const res = await admin.post('/api/blog-posts', body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.issues).toContainEqual({ path: [field], message });
    expect(
      server.db
        .select()
        .from(blogPosts)
        .where(eq(blogPosts.title, String(body.title)))
        .all(),
    ).toEqual([]);
  });

  it('accepts the limits themselves: a 255-character title and slug and a 500-character excerpt', async () => {
    const slug = `${unique('post-')}-`.padEnd(255, 's');
    const res = await admin.post('/api/blog-posts', postBody({ title: 't'.repeat(255), slug, excerpt: 'e'.repeat(500) }));
    expect(res.status).toBe(201);
    expect(rowBySlug(slug)?.title).toBe('t'.repeat(255));
  });

  it('refuses a body nested thousands of levels deep with 400 and a clear message, and keeps one fifty lists deep', async () => {
    const nested = (depth: number) => `${'<ul><li>'.repeat(depth)}Deep down${'</li></ul>'.repeat(depth)}`;
    const body = postBody({ content: nested(3000) });
    const res = await admin.post('/api/blog-posts', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: ['content'], message: expect.stringMatching(/^Content is nested too deeply/) }]);
    expect(rowBySlug(body.slug)).toBeUndefined();
    expect((await admin.post('/api/blog-posts', postBody({ content: nested(50) }))).status).toBe(201);
  });

  it('accepts an empty featured image and an https one', async () => {
    const a = await admin.post('/api/blog-posts', postBody({ featuredImage: '' }));
    expect(a.status).toBe(201);
    expect(a.body.featuredImage).toBeNull();
    const b = await admin.post('/api/blog-posts', postBody({ featuredImage: 'https://images.example.com/a.jpg' }));
    expect(b.status).toBe(201);
    expect(b.body.featuredImage).toBe('https://images.example.com/a.jpg');
  });

  it('uses the category General when none is sent', async () => {
    const body = postBody();
    delete (body as Partial<typeof body>).category;
    const res = await admin.post('/api/blog-posts', body);
    expect(res.status).toBe(201);
    expect(res.body.category).toBe('General');
  });

  it.each([
    ['a numeric title', { title: 5 }, 'title'],
    ['a string isPublished', { isPublished: 'yes' }, 'isPublished'],
  ])('refuses %s with 400 naming the field', async (_label, over, field) => {
    const body = postBody(over);
    const res = await admin.post('/api/blog-posts', body);
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string[] }) => i.path)).toContainEqual([field]);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it('refuses malformed JSON with 400 and a message', async () => {
    const res = await admin.post('/api/blog-posts', '{"title": "Broken", "slug": ');
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses a text/plain body with 415 and writes nothing', async () => {
    const body = postBody();
    const res = await admin.request('POST', '/api/blog-posts', JSON.stringify(body), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });
});

describe('creating and updating a post', () => {
  it('creates a post as admin (201) with the admin as author, readable afterwards', async () => {
    const body = postBody({ title: 'Created Post', excerpt: 'Its excerpt', isPublished: true });
    const res = await admin.post('/api/blog-posts', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Created Post', slug: body.slug, excerpt: 'Its excerpt', category: 'Leadership', isPublished: true, authorId: admin.user.id });
    expect(typeof res.body.id).toBe('number');
    const got = await new Client(server).get(`/api/blog-posts/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: res.body.id, title: 'Created Post', slug: body.slug });
  });

  it('refuses a duplicate slug on create with 409 and keeps one row', async () => {
    const existing = createPost(server, admin.user.id);
    const res = await admin.post('/api/blog-posts', postBody({ slug: existing.slug, title: 'Second one' }));
    expect(res.status).toBe(409);
    expect(server.db.select().from(blogPosts).where(eq(blogPosts.slug, existing.slug)).all()).toHaveLength(1);
  });

  it('refuses taking another post slug on update with 409 and leaves the post unchanged', async () => {
    const a = createPost(server, admin.user.id);
    const b = createPost(server, admin.user.id, { title: 'Post B' });
    const res = await admin.put(`/api/blog-posts/${b.id}`, postBody({ slug: a.slug, title: 'Renamed B' }));
    expect(res.status).toBe(409);
    expect(rowById(b.id)).toMatchObject({ slug: b.slug, title: 'Post B' });
  });

  it('lets a post keep its own slug on update', async () => {
    const post = createPost(server, admin.user.id);
    const res = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: 'Same slug, new title' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, slug: post.slug, title: 'Same slug, new title' });
  });

  it('PUT replaces the fields and the change is stored', async () => {
    const post = createPost(server, admin.user.id, { category: 'General' });
    const body = postBody({
      title: 'Updated title',
      excerpt: 'Updated excerpt',
      content: '<p>Updated content</p>',
      featuredImage: 'https://images.example.com/new.png',
      category: 'Business',
      isPublished: true,
    });
    const res = await admin.put(`/api/blog-posts/${post.id}`, body);
    expect(res.status).toBe(200);
    expect(rowById(post.id)).toMatchObject({
      title: 'Updated title',
      slug: body.slug,
      excerpt: 'Updated excerpt',
      content: '<p>Updated content</p>',
      featuredImage: 'https://images.example.com/new.png',
      category: 'Business',
      isPublished: true,
    });
    const got = await admin.get(`/api/blog-posts/slug/${body.slug}`);
    expect(got.status).toBe(200);
    expect(got.body.title).toBe('Updated title');
  });

  it('PUT validates like POST', async () => {
    const post = createPost(server, admin.user.id, { title: 'Valid before' });
    const res = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: '' }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: ['title'], message: 'Title is required' });
    expect(rowById(post.id)?.title).toBe('Valid before');
  });

  it('PUT and DELETE are refused to anonymous (401) and non-admin (403) callers', async () => {
    const post = createPost(server, admin.user.id, { title: 'Guarded' });
    const body = postBody({ slug: post.slug, title: 'Changed' });
    expect((await new Client(server).put(`/api/blog-posts/${post.id}`, body)).status).toBe(401);
    expect((await user.put(`/api/blog-posts/${post.id}`, body)).status).toBe(403);
    expect((await new Client(server).delete(`/api/blog-posts/${post.id}`)).status).toBe(401);
    expect((await user.delete(`/api/blog-posts/${post.id}`)).status).toBe(403);
    expect(rowById(post.id)?.title).toBe('Guarded');
  });

  it('DELETE removes the post; a later GET answers 404', async () => {
    const post = createPost(server, admin.user.id);
    const res = await admin.delete(`/api/blog-posts/${post.id}`);
    expect(res.status).toBe(200);
    expect(rowById(post.id)).toBeUndefined();
    expect((await admin.get(`/api/blog-posts/${post.id}`)).status).toBe(404);
    expect((await admin.get(`/api/blog-posts/slug/${post.slug}`)).status).toBe(404);
    expect((await admin.delete(`/api/blog-posts/${post.id}`)).status).toBe(404);
  });

  it('deleting a post deletes its comments', async () => {
    const post = createPost(server, admin.user.id);
    const other = createPost(server, admin.user.id);
    createComment(server, post.id, { isApproved: true });
    createComment(server, post.id);
    const kept = createComment(server, other.id);
    expect((await admin.delete(`/api/blog-posts/${post.id}`)).status).toBe(200);
    expect(server.db.select().from(comments).where(eq(comments.blogPostId, post.id)).all()).toEqual([]);
    expect(server.db.select().from(comments).where(eq(comments.id, kept.id)).get()).toBeDefined();
  });
});

describe('unknown and malformed ids', () => {
  it('GET, PUT and DELETE of an unknown id answer 404', async () => {
    const body = postBody();
    expect((await admin.get('/api/blog-posts/987654')).status).toBe(404);
    expect((await admin.put('/api/blog-posts/987654', body)).status).toBe(404);
    expect((await admin.delete('/api/blog-posts/987654')).status).toBe(404);
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it("GET, PUT and DELETE of the id 'abc' answer 404", async () => {
    expect((await admin.get('/api/blog-posts/abc')).status).toBe(404);
    expect((await admin.put('/api/blog-posts/abc', postBody())).status).toBe(404);
    expect((await admin.delete('/api/blog-posts/abc')).status).toBe(404);
  });

  it('GET of an unknown slug answers 404', async () => {
    expect((await new Client(server).get('/api/blog-posts/slug/no-such-post-here')).status).toBe(404);
  });
});

describe('drafts and the public list', () => {
  it('keeps drafts out of the public list and ?published=true, but shows them to the admin', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null });
    const published = createPost(server, admin.user.id);

    const anon = await new Client(server).get('/api/blog-posts');
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toContain(published.id);
    expect(ids(anon.body)).not.toContain(draft.id);
    expect(anon.text).not.toContain(draft.slug);

    const anonPublished = await new Client(server).get('/api/blog-posts?published=true');
    expect(ids(anonPublished.body)).toContain(published.id);
    expect(ids(anonPublished.body)).not.toContain(draft.id);

    const asUser = await user.get('/api/blog-posts');
    expect(ids(asUser.body)).not.toContain(draft.id);

    const adminPublished = await admin.get('/api/blog-posts?published=true');
    expect(ids(adminPublished.body)).toContain(published.id);
    expect(ids(adminPublished.body)).not.toContain(draft.id);

    const adminAll = await admin.get('/api/blog-posts');
    expect(ids(adminAll.body)).toEqual(expect.arrayContaining([draft.id, published.id]));
  });

  it('answers 404 for a draft by slug to a visitor and a non-admin, 200 to an admin', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null, title: 'Secret draft' });
    const anon = await new Client(server).get(`/api/blog-posts/slug/${draft.slug}`);
    expect(anon.status).toBe(404);
    expect(anon.text).not.toContain('Secret draft');
    expect((await user.get(`/api/blog-posts/slug/${draft.slug}`)).status).toBe(404);
    const asAdmin = await admin.get(`/api/blog-posts/slug/${draft.slug}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ id: draft.id, title: 'Secret draft', isPublished: false });
  });

  it('answers 404 for a draft by id to a visitor and a non-admin, 200 to an admin', async () => {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null, title: 'Secret draft 2' });
    const anon = await new Client(server).get(`/api/blog-posts/${draft.id}`);
    expect(anon.status).toBe(404);
    expect(anon.text).not.toContain('Secret draft 2');
    expect((await user.get(`/api/blog-posts/${draft.id}`)).status).toBe(404);
    const asAdmin = await admin.get(`/api/blog-posts/${draft.id}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ id: draft.id, isPublished: false });
  });

  it('serves a published post by slug to a visitor', async () => {
    const post = createPost(server, admin.user.id, { title: 'Public one' });
    const res = await new Client(server).get(`/api/blog-posts/slug/${post.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, slug: post.slug, title: 'Public one' });
  });

  it('a post unpublished by an admin disappears from the public', async () => {
    const post = createPost(server, admin.user.id);
    const res = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, isPublished: false }));
    expect(res.status).toBe(200);
    expect((await new Client(server).get(`/api/blog-posts/slug/${post.slug}`)).status).toBe(404);
    expect(ids((await new Client(server).get('/api/blog-posts')).body)).not.toContain(post.id);
  });

  it('lists published posts newest first', async () => {
    const base = Date.now() + 60 * 60 * 1000; // later than anything else in this file
    const older = createPost(server, admin.user.id, { createdAt: new Date(base), publishedAt: new Date(base) });
    const newest = createPost(server, admin.user.id, { createdAt: new Date(base + 2000), publishedAt: new Date(base + 2000) });
    const middle = createPost(server, admin.user.id, { createdAt: new Date(base + 1000), publishedAt: new Date(base + 1000) });
    const res = await new Client(server).get('/api/blog-posts?published=true');
    const order = ids(res.body).filter((id) => [older.id, middle.id, newest.id].includes(id));
    expect(order).toEqual([newest.id, middle.id, older.id]);
    expect(res.body[0].id).toBe(newest.id);
  });
});

describe('publishedAt and readTime', () => {
  it('leaves publishedAt empty for a draft, sets it on first publish and keeps it through later updates', async () => {
    const created = await admin.post('/api/blog-posts', postBody({ isPublished: false }));
    expect(created.status).toBe(201);
    expect(created.body.publishedAt).toBeNull();
    const id = created.body.id;
    const slug = created.body.slug;

    const before = Date.now();
    const published = await admin.put(`/api/blog-posts/${id}`, postBody({ slug, isPublished: true }));
    expect(published.status).toBe(200);
    const firstPublishedAt = published.body.publishedAt;
    expect(firstPublishedAt).toEqual(expect.any(String));
    expect(Date.parse(firstPublishedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(firstPublishedAt)).toBeLessThanOrEqual(Date.now() + 1000);

    await new Promise((r) => setTimeout(r, 20));
    const edited = await admin.put(`/api/blog-posts/${id}`, postBody({ slug, isPublished: true, title: 'Edited later' }));
    expect(edited.status).toBe(200);
    expect(edited.body.publishedAt).toBe(firstPublishedAt);
    expect((await admin.get(`/api/blog-posts/${id}`)).body.publishedAt).toBe(firstPublishedAt);
  });

  it('sets publishedAt when a post is created already published', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ isPublished: true }));
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.publishedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('computes the read time from the content when none is given (450 words -> 3 min)', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ content: `<p>${words(450)}</p>` }));
    expect(res.status).toBe(201);
    expect(res.body.readTime).toBe(3);
    expect(rowById(res.body.id)?.readTime).toBe(3);
  });

  it('counts words, not markup, and gives at least 1 minute', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ content: '<p><strong>Tiny</strong> post</p>' }));
    expect(res.body.readTime).toBe(1);
    const styled = `<p class="a"><span style="color:red">${words(201)}</span></p>`;
    const res2 = await admin.post('/api/blog-posts', postBody({ content: styled }));
    expect(res2.body.readTime).toBe(2);
  });

  it('counts the words of separate paragraphs separately (3 x 67 = 201 words -> 2 min)', async () => {
    // The editor emits paragraphs back to back, with no whitespace between </p> and <p>.
    const content = [words(67), words(67), words(67)].map((w) => `<p>${w}</p>`).join('');
    const res = await admin.post('/api/blog-posts', postBody({ content }));
    expect(res.status).toBe(201);
    expect(res.body.readTime).toBe(2);
  });

  it('keeps a read time the admin gives', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ content: `<p>${words(450)}</p>`, readTime: 7 }));
    expect(res.status).toBe(201);
    expect(res.body.readTime).toBe(7);
  });

  it('recomputes the read time when the content changes on update', async () => {
    const created = await admin.post('/api/blog-posts', postBody({ content: `<p>${words(450)}</p>` }));
    const res = await admin.put(`/api/blog-posts/${created.body.id}`, postBody({ slug: created.body.slug, content: `<p>${words(1001)}</p>` }));
    expect(res.status).toBe(200);
    expect(res.body.readTime).toBe(6);
  });
});

describe('HTML sanitising', () => {
  const dirty = [
    '<p style="text-align: center">Centered <strong>bold</strong> text</p>',
    '<h2>A heading</h2>',
    '<p><a href="https://example.com/page">a good link</a></p>',
    '<script>alert("xss")</script>',
    '<img src="https://example.com/x.png" onerror="alert(1)">',
    '<p><a href="javascript:alert(2)">a bad link</a></p>',
  ].join('');

  function expectClean(html: string) {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('alert("xss")');
    expect(html).not.toMatch(/onerror/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toMatch(/<p style="text-align:\s*center;?">Centered <strong>bold<\/strong> text<\/p>/);
    expect(html).toContain('<h2>A heading</h2>');
    expect(html).toContain('<a href="https://example.com/page">a good link</a>');
    expect(html).toContain('a bad link');
  }

  it('strips scripts, event handlers and javascript: links on create, keeping the editor markup', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ content: dirty, isPublished: true }));
    expect(res.status).toBe(201);
    expectClean(res.body.content);
    expectClean(rowById(res.body.id)!.content);
    expectClean((await new Client(server).get(`/api/blog-posts/slug/${res.body.slug}`)).body.content);
  });

  it('sanitises on update too', async () => {
    const post = createPost(server, admin.user.id);
    const res = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, content: dirty }));
    expect(res.status).toBe(200);
    expectClean(rowById(post.id)!.content);
  });

  it('keeps exactly the safe part of content mixed with a script', async () => {
    const res = await admin.post('/api/blog-posts', postBody({ content: '<p>ok</p><script>evil()</script>' }));
    expect(res.status).toBe(201);
    expect(res.body.content).toBe('<p>ok</p>');
  });
});
