// Writes and the page cache: a write refreshes only the pages that show what it changed;
// readers of a page being refreshed get the previous copy at once while one render replaces it;
// what goes away is gone at the very next request.
import { describe, expect, it } from 'vitest';
import { createPost, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
serverWithClients((s) => ({ server, admin } = s));

const get = (path: string) => fetch(`${server.url}${path}`);
/** Requests a page until the cache answers it fresh (the first request renders and keeps it). */
async function cachedCopy(path: string): Promise<{ headers: Headers; text: () => string }> {
  for (let i = 0; i < 50; i++) {
    const res = await get(path);
    const body = await res.text();
    if (res.headers.get('x-cache') === 'HIT') return { headers: res.headers, text: () => body };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} never came from the cache`);
}

const postBody = (slug: string, over: Record<string, unknown> = {}) => ({
  title: `Post ${slug}`,
  slug,
  content: '<p>Body</p>',
  excerpt: 'An excerpt long enough to show on the cards.',
  isPublished: true,
  ...over,
});

describe('a write refreshes only what it changed', () => {
  it('leaves /work-with-me and the privacy page cached when a post is updated', async () => {
    const post = createPost(server, admin.user.id, { isPublished: true, publishedAt: new Date() });
    const before = { work: (await cachedCopy('/work-with-me')).headers.get('x-cache-render'), privacy: (await cachedCopy('/privacy-policy')).headers.get('x-cache-render') };
    const res = await admin.request('PUT', `/api/blog-posts/${post.id}`, postBody(post.slug, { title: 'A typo fixed' }));
    expect(res.status).toBe(200);
    const work = await get('/work-with-me');
    expect(work.headers.get('x-cache')).toBe('HIT');
    expect(work.headers.get('x-cache-render')).toBe(before.work);
    expect((await get('/privacy-policy')).headers.get('x-cache-render')).toBe(before.privacy);
  });

  it('leaves /podcast cached when a post changes, and /blog when an episode changes', async () => {
    const post = createPost(server, admin.user.id, { isPublished: true, publishedAt: new Date() });
    const podcast = (await cachedCopy('/podcast')).headers.get('x-cache-render');
    await admin.request('PUT', `/api/blog-posts/${post.id}`, postBody(post.slug, { title: 'Edited again' }));
    expect((await get('/podcast')).headers.get('x-cache-render')).toBe(podcast);

    const blog = (await cachedCopy('/blog')).headers.get('x-cache-render');
    const episode = await admin.request('POST', '/api/podcast-episodes', { title: 'A new episode', slug: unique('episode-'), isPublished: true });
    expect(episode.status).toBe(201);
    expect((await get('/blog')).headers.get('x-cache-render')).toBe(blog);
    expect(await (await get('/podcast')).text()).toContain('A new episode');
  });
});

describe('what goes away is gone at once', () => {
  it('answers 404 for an unpublished post on the very next request, and drops it from /blog and the feed', async () => {
    const slug = unique('going-away-');
    const created = await admin.request('POST', '/api/blog-posts', postBody(slug, { title: 'Soon to be unpublished' }));
    expect(created.status).toBe(201);
    await cachedCopy(`/blog/${slug}`);
    expect((await cachedCopy('/blog')).text()).toContain('Soon to be unpublished');
    await cachedCopy('/rss.xml');

    await admin.request('PUT', `/api/blog-posts/${created.body.id}`, postBody(slug, { title: 'Soon to be unpublished', isPublished: false }));
    expect((await get(`/blog/${slug}`)).status).toBe(404);
    expect(await (await get('/blog')).text()).not.toContain('Soon to be unpublished');
    expect(await (await get('/rss.xml')).text()).not.toContain(slug);
  });

  it('answers 404 for a deleted post on the very next request', async () => {
    const slug = unique('deleted-');
    const created = await admin.request('POST', '/api/blog-posts', postBody(slug));
    await cachedCopy(`/blog/${slug}`);
    expect((await admin.request('DELETE', `/api/blog-posts/${created.body.id}`)).status).toBe(200);
    expect((await get(`/blog/${slug}`)).status).toBe(404);
  });

  it('shows a newly published post on the very next request', async () => {
    await cachedCopy('/blog');
    const slug = unique('brand-new-');
    await admin.request('POST', '/api/blog-posts', postBody(slug, { title: 'Brand new today' }));
    expect(await (await get('/blog')).text()).toContain('Brand new today');
  });
});

describe('readers never wait for a render', () => {
  it('answers 50 concurrent requests for a stale page at once from the old copy, with one render replacing it', async () => {
    const post = createPost(server, admin.user.id, { isPublished: true, publishedAt: new Date(), title: 'Before the fix' });
    const page = `/blog/${post.slug}`;
    const old = await cachedCopy(page);
    const oldRender = Number(old.headers.get('x-cache-render'));
    await admin.request('PUT', `/api/blog-posts/${post.id}`, postBody(post.slug, { title: 'After the fix' }));

    const answers = await Promise.all(Array.from({ length: 50 }, () => get(page).then(async (r) => ({ state: r.headers.get('x-cache'), status: r.status, text: await r.text() }))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // Nobody rendered for their own request: the old copy, or the new one once it was there.
    expect(answers.filter((a) => a.state === 'MISS')).toHaveLength(0);
    expect(answers.some((a) => a.state === 'STALE' && a.text.includes('Before the fix'))).toBe(true);

    const fresh = await cachedCopy(page);
    expect(fresh.text()).toContain('After the fix');
    // Exactly one render happened in the process since the old copy: the replacement.
    expect(Number(fresh.headers.get('x-cache-render'))).toBe(oldRender + 1);
  });

  it('shares one render among concurrent requests for a page nobody has rendered yet', async () => {
    const post = createPost(server, admin.user.id, { isPublished: true, publishedAt: new Date() });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => get(`/blog/${post.slug}`).then(async (r) => ({ state: r.headers.get('x-cache'), render: r.headers.get('x-cache-render'), text: await r.text() }))),
    );
    expect(answers.filter((a) => a.state === 'MISS')).toHaveLength(1);
    expect(new Set(answers.map((a) => a.render)).size).toBe(1);
    expect(answers.every((a) => a.text.includes(post.title))).toBe(true);
  });
});

describe('pages rendered for one request', () => {
  it('go to an anonymous visitor compressed, as cached pages do; to a signed-in person plain', async () => {
    // The booking page lists open times, so it is rendered for each request and never kept.
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${server.url}/book/strategy-call`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBeNull();
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(await res.text()).toContain('Strategy Call');
    }
    const plain = await fetch(`${server.url}/book/strategy-call`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('Strategy Call');
    // A page holding a signed-in person's details is not compressed (no secret guessed by its size).
    const mine = await admin.request('GET', '/book/strategy-call', undefined, { 'accept-encoding': 'br, gzip' });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-encoding')).toBeNull();
  });
});
