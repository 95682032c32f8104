import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, clientAs, createPost, createUser } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
let authorId: string;
beforeAll(async () => {
  server = await startServer();
  authorId = (await createUser(server, { isAdmin: true })).id;
});
afterAll(async () => {
  await server?.stop();
});

const search = async (params: Record<string, string>) => (await new Client(server).get(`/api/blog-posts/search?${new URLSearchParams(params)}`)).body;
/** The answer once it is current: after an edit, a cached answer is given once more (marked STALE) while it is re-computed. */
async function searchNow(params: Record<string, string>) {
  for (let i = 0; ; i++) {
    const res = await new Client(server).get(`/api/blog-posts/search?${new URLSearchParams(params)}`);
    if (res.headers.get('x-cache') !== 'STALE' || i === 50) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /api/blog-posts/search', () => {
  it('matches a case-insensitive substring of the title or excerpt, published posts only', async () => {
    const a = createPost(server, authorId, { title: 'The Art of Delegation', excerpt: 'Letting go', category: 'Leadership' });
    const b = createPost(server, authorId, { title: 'Pricing', excerpt: 'Why DELEGATES matter', category: 'Business' });
    createPost(server, authorId, { title: 'Secret delegation draft', isPublished: false });
    createPost(server, authorId, { title: 'Unrelated', excerpt: 'Nothing here' });
    const r = await search({ q: 'eLeGaT' });
    expect(r.items.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(r.total).toBe(2);
    // Short terms work too (LIKE fallback).
    expect((await search({ q: 'Ar' })).items.some((p: { id: number }) => p.id === a.id)).toBe(true);
  });

  it('filters by exact category and combines with the search', async () => {
    const r = await search({ q: 'delegat', category: 'Leadership' });
    expect(r.items.map((p: { title: string }) => p.title)).toEqual(['The Art of Delegation']);
  });

  it('pages newest first', async () => {
    for (let i = 0; i < 5; i++) createPost(server, authorId, { title: `Paging ${i}`, createdAt: new Date(Date.now() - i * 1000) });
    const first = await search({ q: 'Paging', pageSize: '2', page: '1' });
    const second = await search({ q: 'Paging', pageSize: '2', page: '2' });
    expect(first.total).toBe(5);
    expect(first.items.map((p: { title: string }) => p.title)).toEqual(['Paging 0', 'Paging 1']);
    expect(second.items.map((p: { title: string }) => p.title)).toEqual(['Paging 2', 'Paging 3']);
  });

  it('follows edits and deletes', async () => {
    const admin = await clientAs(server, 'admin');
    const post = createPost(server, authorId, { title: 'Original zebra title' });
    expect((await search({ q: 'zebra' })).total).toBe(1);
    const put = await admin.put(`/api/blog-posts/${post.id}`, { title: 'Renamed giraffe title', slug: post.slug, content: post.content, isPublished: true });
    expect(put.status).toBe(200);
    expect((await searchNow({ q: 'zebra' })).total).toBe(0);
    expect((await searchNow({ q: 'giraffe' })).total).toBe(1);
    await admin.delete(`/api/blog-posts/${post.id}`);
    expect((await search({ q: 'giraffe' })).total).toBe(0);
  });

  it('treats search syntax as plain text and refuses over-long input', async () => {
    expect((await new Client(server).get(`/api/blog-posts/search?q=${encodeURIComponent('"AND OR * NEAR(')}`)).status).toBe(200);
    expect((await new Client(server).get(`/api/blog-posts/search?q=${'x'.repeat(201)}`)).status).toBe(400);
  });
});

describe('GET /api/blog-posts?summary=true', () => {
  it('lists posts without their bodies, with the excerpt filled in', async () => {
    const post = createPost(server, authorId, { title: 'Summary check', excerpt: null, content: '<p>Body words that become the excerpt</p>' });
    const res = await new Client(server).get('/api/blog-posts?summary=true');
    const item = res.body.find((p: { id: number }) => p.id === post.id);
    expect(item).not.toHaveProperty('content');
    expect(item.excerpt).toBe('Body words that become the excerpt');
    const full = await new Client(server).get('/api/blog-posts');
    expect(full.body.find((p: { id: number }) => p.id === post.id).content).toContain('<p>');
  });
});
