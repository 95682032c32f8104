// Blog post tags: saved with the post, shown as links on its page, and filtering /blog and the
// public search, against the built server.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blogPosts, postTags } from '#db/schema/content.ts';
import { Client, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
serverWithClients((s) => ({ server, admin } = s));

const postBody = (over: Record<string, unknown> = {}) => ({ title: unique('Tagged post '), slug: unique('tagged-'), content: '<p>Body</p>', category: 'Leadership', isPublished: true, ...over });

/** Creates a post through the API, as the editor does. */
async function savePost(over: Record<string, unknown> = {}) {
  const body = postBody(over);
  const res = await admin.post('/api/blog-posts', body);
  expect(res.status).toBe(201);
  return res.body as { id: number; slug: string; title: string; tags: { slug: string; name: string }[] };
}

const tagRows = (postId: number) =>
  server.db
    .select({ slug: postTags.slug, name: postTags.name })
    .from(postTags)
    .where(eq(postTags.postId, postId))
    .all()
    .sort((a, b) => a.slug.localeCompare(b.slug));

/** The tags list of a post page: each link's href and text, or null when there is none. */
/** The tag links on a post's page as it is now (an edited page is answered stale once while it re-renders). */
async function tagLinks(slug: string) {
  let res = await new Client(server).get(`/blog/${slug}`);
  for (let i = 0; i < 50 && res.headers.get('x-cache') === 'STALE'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    res = await new Client(server).get(`/blog/${slug}`);
  }
  expect(res.status).toBe(200);
  const list = /<ul aria-label="Tags"[^>]*>([\s\S]*?)<\/ul>/.exec(res.text);
  if (!list?.[1]) return null;
  return [...list[1].matchAll(/<a href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ href: m[1], text: (m[2] ?? '').replace(/<[^>]*>|#/g, '').trim() }));
}

const search = async (params: Record<string, string>) => (await new Client(server).get(`/api/blog-posts/search?${new URLSearchParams(params)}`)).body as { items: { id: number }[]; total: number };

describe('tags on a post', () => {
  it('are saved with the post (trimmed, one per slug, sorted by name) and shown on its page as links to /blog?tag=', async () => {
    const post = await savePost({ tags: ['  Remote Work ', 'AI', 'remote work', ''] });
    const expected = [
      { slug: 'ai', name: 'AI' },
      { slug: 'remote-work', name: 'Remote Work' },
    ];
    expect(post.tags).toEqual(expected);
    expect(tagRows(post.id)).toEqual(expected);
    expect((await admin.get(`/api/blog-posts/${post.id}`)).body.tags).toEqual(expected);
    expect(await tagLinks(post.slug)).toEqual([
      { href: '/blog?tag=ai', text: 'AI' },
      { href: '/blog?tag=remote-work', text: 'Remote Work' },
    ]);
  });

  it('a post without tags has no Tags list on its page', async () => {
    const post = await savePost();
    expect(post.tags).toEqual([]);
    expect(await tagLinks(post.slug)).toBeNull();
  });

  it('are replaced when an update gives them, and kept when it does not', async () => {
    const post = await savePost({ tags: ['One', 'Two'] });
    const put = (over: Record<string, unknown>) => admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: post.title, ...over }));

    const replaced = await put({ tags: ['Two', 'Three'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.tags).toEqual([
      { slug: 'three', name: 'Three' },
      { slug: 'two', name: 'Two' },
    ]);

    const kept = await put({ title: 'Renamed, tags untouched' });
    expect(kept.status).toBe(200);
    expect(tagRows(post.id).map((t) => t.name)).toEqual(['Three', 'Two']);
    expect((await tagLinks(post.slug))?.map((l) => l.href)).toEqual(['/blog?tag=three', '/blog?tag=two']);

    expect((await put({ tags: [] })).status).toBe(200);
    expect(tagRows(post.id)).toEqual([]);
    expect(await tagLinks(post.slug)).toBeNull();
  });

  it('refuses a tag over 50 characters or more than 20 tags with 400, changing nothing', async () => {
    const post = await savePost({ tags: ['Keep me'] });
    const before = server.db.select().from(blogPosts).where(eq(blogPosts.id, post.id)).get();

    const tooLong = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: 'Changed title', tags: ['x'.repeat(51)] }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.issues[0].path[0]).toBe('tags');

    const tooMany = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: 'Changed title', tags: Array.from({ length: 21 }, (_, i) => `tag ${i}`) }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.issues[0].path[0]).toBe('tags');

    expect(server.db.select().from(blogPosts).where(eq(blogPosts.id, post.id)).get()).toEqual(before);
    expect(tagRows(post.id)).toEqual([{ slug: 'keep-me', name: 'Keep me' }]);

    // Fifty characters (after trimming) and twenty tags are fine.
    const edge = await admin.put(`/api/blog-posts/${post.id}`, postBody({ slug: post.slug, title: post.title, tags: [` ${'y'.repeat(50)} `, ...Array.from({ length: 19 }, (_, i) => `tag ${i}`)] }));
    expect(edge.status).toBe(200);
    expect(tagRows(post.id)).toHaveLength(20);

    const create = postBody({ tags: Array.from({ length: 21 }, (_, i) => `tag ${i}`) });
    expect((await admin.post('/api/blog-posts', create)).status).toBe(400);
    expect(server.db.select().from(blogPosts).where(eq(blogPosts.slug, create.slug)).get()).toBeUndefined();
  });
});

describe('/blog?tag=', () => {
  it('lists only the published posts with that tag, under a "Tagged" heading with a way back', async () => {
    const name = unique('Topic ');
    const tagged = await savePost({ tags: [name] });
    const draft = await savePost({ tags: [name], isPublished: false });
    const other = await savePost({ tags: ['Something else'] });
    const slug = tagged.tags[0]?.slug ?? '';

    // The unfiltered page first: a filtered one must not be answered with it from the cache.
    const all = await new Client(server).get('/blog');
    expect(all.text).not.toContain('Tagged:');

    const res = await new Client(server).get(`/blog?${new URLSearchParams({ tag: slug })}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(tagged.title);
    expect(res.text).not.toContain(draft.title);
    expect(res.text).not.toContain(other.title);
    expect(res.text).toMatch(new RegExp(`<h2[^>]*>Tagged: ${name}</h2>`));
    expect(res.text).toMatch(/<a href="\/blog"[^>]*>\s*Show all posts\s*<\/a>/);
    // Without JavaScript, searching keeps the tag and 'Load more' would too.
    expect(res.text).toContain(`<input type="hidden" name="tag" value="${slug}"/>`);
  });

  it('ignores a tag no published post has: every post, no heading', async () => {
    const draftOnly = await savePost({ tags: [unique('Draft only ')], isPublished: false });
    const published = await savePost();
    for (const tag of ['no-such-tag', draftOnly.tags[0]?.slug ?? '']) {
      const res = await new Client(server).get(`/blog?tag=${tag}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('Tagged:');
      expect(res.text).toContain(published.title);
    }
  });
});

describe('GET /api/blog-posts/search?tag=', () => {
  it('filters to published posts with the tag, with the search and the category', async () => {
    const name = unique('Search topic ');
    const a = await savePost({ title: unique('Alpha '), tags: [name], category: 'Leadership' });
    const b = await savePost({ title: unique('Beta '), tags: [name, 'Other'], category: 'Business' });
    await savePost({ title: unique('Hidden '), tags: [name], isPublished: false });
    await savePost({ title: unique('Untagged ') });
    const tag = a.tags[0]?.slug ?? '';

    // Unfiltered first: the cached answer must not stand in for the filtered one.
    expect((await search({})).total).toBeGreaterThan(2);

    const r = await search({ tag });
    expect(r.items.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(r.total).toBe(2);
    expect((await search({ tag, category: 'Business' })).items.map((p) => p.id)).toEqual([b.id]);
    expect((await search({ tag, q: 'Alpha' })).items.map((p) => p.id)).toEqual([a.id]);
    expect((await search({ tag: 'no-such-tag' })).total).toBe(0);
    expect((await new Client(server).get(`/api/blog-posts/search?tag=${'x'.repeat(101)}`)).status).toBe(400);
  });
});
