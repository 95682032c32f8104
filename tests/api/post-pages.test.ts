// The admin blog list at 3,000 posts: a page, its match count and the stat cards come from
// SQL, and so do the search (title or excerpt) and the status filter. The plain calls still
// answer as before: the whole list to an admin, published posts a page at a time to visitors.
import { beforeAll, describe, expect, it } from 'vitest';
import { blogPosts } from '#db/schema/content.ts';
import { Client, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const COUNT = 3_000;
const NOW = Date.now();
const DAY = 24 * 3600 * 1000;
/** Titles that only match a search taking LIKE's % and _ literally; each has a twin a wildcard would also match. */
const SPECIAL: Record<number, string> = { 1500: 'Price 50% off', 1501: 'Price 50 off', 1600: 'Snake a_b case', 1601: 'Snake axb case' };

type Row = typeof blogPosts.$inferSelect;
type Status = 'all' | 'published' | 'draft' | 'scheduled';
/** The status filter the screen has always had. */
const RULE: Record<Status, (p: Row) => boolean> = { all: () => true, published: (p) => p.isPublished, draft: (p) => !p.isPublished && !p.scheduledAt, scheduled: (p) => Boolean(p.scheduledAt) };

beforeAll(() => {
  const rows = Array.from({ length: COUNT }, (_, i) => {
    // A quarter each: published, published, draft, scheduled.
    const kind = i % 4;
    return {
      title: SPECIAL[i] ?? (i === 1700 ? 'Über Émile at work' : `Bulk post ${i}`),
      slug: `bulk-post-${i}`,
      // Every tenth has no excerpt: the list fills it in from the body.
      excerpt: i % 10 === 7 ? null : `Excerpt of bulk ${i}.`,
      content: `<p>Body of bulk post ${i}</p>`,
      isPublished: kind < 2,
      publishedAt: kind < 2 ? new Date(NOW - i * 60_000) : null,
      scheduledAt: kind === 3 ? new Date(NOW + 30 * DAY + i * 60_000) : null,
      authorId: admin.user.id,
      // One a minute, newest first by index.
      createdAt: new Date(NOW - i * 60_000),
    };
  });
  server.db.transaction((tx) => {
    for (let i = 0; i < rows.length; i += 500)
      tx.insert(blogPosts)
        .values(rows.slice(i, i + 500))
        .run();
  });
});

/** Every post as the database holds it, in the admin order (the latest written first). */
const inDb = () =>
  server.db
    .select()
    .from(blogPosts)
    .all()
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);

interface Item {
  id: number;
  title: string;
  excerpt: string;
  isPublished: boolean;
  scheduledAt: string | null;
  content?: string;
}
interface Page {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
  stats: { total: number; published: number; drafts: number };
}

const pageOf = async (query: string) => {
  const res = await admin.get(`/api/blog-posts?${query}`);
  expect(res.status, query).toBe(200);
  return res.body as Page;
};
const titles = (page: Page) => page.items.map((p) => p.title);

describe('the admin post list, paged on the server', () => {
  it('answers the first page of 50, newest first, with the count and the stat cards of every post', async () => {
    const all = inDb();
    const first = await pageOf('page=1');
    expect(first).toMatchObject({ page: 1, pageSize: 50, total: all.length });
    expect(first.items.map((p) => p.id)).toEqual(all.slice(0, 50).map((p) => p.id));
    const published = all.filter((p) => p.isPublished).length;
    expect(first.stats).toEqual({ total: all.length, published, drafts: all.length - published });
    expect(first.stats.total).toBeGreaterThanOrEqual(COUNT);
  });

  it('answers summaries: no body, the excerpt filled in from it when blank', async () => {
    const first = await pageOf('q=bulk post 7&pageSize=1');
    expect(first.items[0]).not.toHaveProperty('content');
    expect(first.items[0]).toMatchObject({ title: 'Bulk post 7', excerpt: 'Body of bulk post 7' });
    expect((await pageOf('q=Bulk post 8&pageSize=1')).items[0].excerpt).toBe('Excerpt of bulk 8.');
  });

  it('searches the title and the excerpt, case-insensitively', async () => {
    // Bulk post 42 and 420-429.
    const byTitle = await pageOf('q=BULK POST 42');
    expect(byTitle.total).toBe(11);
    expect(titles(byTitle)).toEqual(['Bulk post 42', ...Array.from({ length: 10 }, (_, i) => `Bulk post ${420 + i}`)]);
    const byExcerpt = await pageOf('q=excerpt OF bulk 2999.');
    expect(titles(byExcerpt)).toEqual(['Bulk post 2999']);
    expect(byExcerpt.total).toBe(1);
    // The stat cards stay those of the whole list.
    expect(byExcerpt.stats.total).toBe(inDb().length);
    // Without an excerpt, the start of the body is what the list shows, and what is searched.
    expect(titles(await pageOf('q=body of bulk post 2997'))).toEqual(['Bulk post 2997']);
    expect((await pageOf('q=body of bulk post 2998')).total).toBe(0);
  });

  it('folds case in any alphabet, not just A to Z', async () => {
    for (const q of ['über émile', 'ÜBER', 'Émile', 'über']) expect(titles(await pageOf(`q=${encodeURIComponent(q)}`)), q).toEqual(['Über Émile at work']);
  });

  it('takes % and _ in a search literally', async () => {
    expect(titles(await pageOf(`q=${encodeURIComponent('50% off')}`))).toEqual(['Price 50% off']);
    expect(titles(await pageOf(`q=${encodeURIComponent('a_b')}`))).toEqual(['Snake a_b case']);
    const percent = inDb().filter((p) => p.title.includes('%') || (p.excerpt ?? '').includes('%'));
    expect((await pageOf(`q=${encodeURIComponent('%')}`)).total).toBe(percent.length);
    expect(percent.length).toBeLessThan(10);
  });

  it('filters by status with the rule of the screen: drafts are neither published nor scheduled', async () => {
    const all = inDb();
    for (const status of ['all', 'published', 'draft', 'scheduled'] as const) {
      const expected = all.filter(RULE[status]);
      const page = await pageOf(`status=${status}&pageSize=200`);
      expect(page.total, status).toBe(expected.length);
      expect(
        page.items.map((p) => p.id),
        status,
      ).toEqual(expected.slice(0, 200).map((p) => p.id));
    }
    expect((await pageOf('status=scheduled')).total).toBeGreaterThanOrEqual(COUNT / 4);
    // Search and status combine.
    const both = await pageOf('status=scheduled&q=bulk post 4');
    expect(both.items.every((p) => p.scheduledAt !== null && !p.isPublished && p.title.startsWith('Bulk post 4'))).toBe(true);
    expect(both.total).toBe(all.filter((p) => RULE.scheduled(p) && p.title.toLowerCase().includes('bulk post 4')).length);
  });

  it('answers a deep page, and an empty one past the end', async () => {
    const all = inDb();
    const deep = await pageOf('page=40&pageSize=50');
    expect(deep.page).toBe(40);
    expect(deep.items.map((p) => p.id)).toEqual(all.slice(1950, 2000).map((p) => p.id));
    const drafts = all.filter(RULE.draft);
    const deepDrafts = await pageOf('status=draft&page=7&pageSize=100');
    expect(deepDrafts.items.map((p) => p.id)).toEqual(drafts.slice(600, 700).map((p) => p.id));
    const past = await pageOf('page=1000');
    expect(past.items).toEqual([]);
    expect(past.total).toBe(all.length);
  });
});

describe('the plain calls', () => {
  it('still answer the whole list to an admin, with bodies or as summaries', async () => {
    const all = inDb();
    const full = await admin.get('/api/blog-posts');
    expect(full.body).toHaveLength(all.length);
    expect(full.headers.get('x-total-count')).toBe(String(all.length));
    expect(full.body.map((p: Item) => p.id)).toEqual(all.map((p) => p.id));
    expect(full.body[0].content).toContain('<p>');
    const summaries = await admin.get('/api/blog-posts?summary=true');
    expect(summaries.body).toHaveLength(all.length);
    expect(summaries.body.find((p: Item) => p.title === 'Bulk post 7')).toMatchObject({ excerpt: 'Body of bulk post 7' });
    expect(summaries.body[0]).not.toHaveProperty('content');
  });

  it('still answer visitors one page of published posts, with the total in X-Total-Count', async () => {
    const published = inDb().filter((p) => p.isPublished);
    const visitor = new Client(server);
    const first = await visitor.get('/api/blog-posts');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(20);
    expect(first.headers.get('x-total-count')).toBe(String(published.length));
    expect(first.body.every((p: Item) => p.isPublished)).toBe(true);
    const window = await visitor.get('/api/blog-posts?limit=5&offset=5');
    expect(window.body.map((p: Item) => p.id)).toEqual(first.body.slice(5, 10).map((p: Item) => p.id));
    expect((await user.get('/api/blog-posts?published=false')).body.every((p: Item) => p.isPublished)).toBe(true);
  });
});

describe('bad paging and other callers', () => {
  it('answers 400 with the reason', async () => {
    for (const [query, message] of [
      ['pageSize=500', 'pageSize must be at most 200'],
      ['page=0', 'page must be at least 1'],
      ['page=two', 'page must be a number'],
      ['status=bogus', 'status must be all, published, draft or scheduled'],
      [`q=${'x'.repeat(201)}`, 'q must be at most 200 characters'],
    ]) {
      const res = await admin.get(`/api/blog-posts?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe(message);
    }
  });

  it('gives anyone but an admin the public list, those parameters ignored, so drafts and their count stay hidden', async () => {
    const published = inDb().filter((p) => p.isPublished);
    for (const query of ['page=1', 'status=draft', 'q=bulk', 'pageSize=10&published=true']) {
      for (const caller of [user, new Client(server)]) {
        const res = await caller.get(`/api/blog-posts?${query}`);
        expect(res.status, query).toBe(200);
        expect(Array.isArray(res.body), query).toBe(true);
        expect(res.body).toHaveLength(Math.min(20, published.length));
        expect(
          res.body.every((p: Item) => p.isPublished),
          query,
        ).toBe(true);
        expect(res.headers.get('x-total-count'), query).toBe(String(published.length));
      }
    }
  });
});
