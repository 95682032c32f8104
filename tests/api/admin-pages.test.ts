// Comments, users and orders paged on the server: a page, its count and the stat cards come
// from SQL, searches and filters too; the plain calls still answer whole lists.
import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders } from '#db/schema/commerce.ts';
import { comments } from '#db/schema/content.ts';
import { createPost, createUser, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const COMMENTS = 20_000;
const ORDERS = 10_000;
const rowsIn = (table: typeof comments | typeof orders) => server.db.select({ n: count() }).from(table).get()!.n;
let commentsBefore = 0;
let ordersBefore = 0;

beforeAll(() => {
  commentsBefore = rowsIn(comments);
  ordersBefore = rowsIn(orders);
  const post = createPost(server, admin.user.id, { title: 'Paged comments live here', isPublished: true });
  const now = Date.now();
  server.db.transaction((tx) => {
    for (let i = 0; i < COMMENTS; i += 500) {
      tx.insert(comments)
        .values(
          Array.from({ length: 500 }, (_, j) => ({
            content: `Comment number ${i + j}`,
            authorName: `Commenter ${i + j}`,
            authorEmail: `c${i + j}@bulk.example`,
            blogPostId: post.id,
            isApproved: (i + j) % 4 !== 0,
            createdAt: new Date(now - (i + j) * 1000),
          })),
        )
        .run();
    }
    for (let i = 0; i < ORDERS; i += 500) {
      tx.insert(orders)
        .values(
          Array.from({ length: 500 }, (_, j) => ({
            productName: (i + j) % 2 ? 'Strategy Session' : 'Leadership Playbook',
            amount: 1000,
            status: (['succeeded', 'succeeded', 'pending', 'failed', 'refunded'] as const)[(i + j) % 5],
            paymentIntentId: `pi_bulk_${i + j}`,
            customerEmail: `buyer${i + j}@bulk.example`,
            createdAt: new Date(now - (i + j) * 1000),
          })),
        )
        .run();
    }
  });
});

const get = async (path: string) => {
  const res = await admin.request('GET', path);
  expect(res.status, path).toBe(200);
  return res.body;
};

describe('comments, paged on the server', () => {
  it('answers a page of pending ones, newest first, with the counts over every comment', async () => {
    const page = await get('/api/admin/comments?status=pending&page=1&pageSize=25');
    expect(page.items).toHaveLength(25);
    expect(page.items.every((c: { isApproved: boolean }) => !c.isApproved)).toBe(true);
    expect(page.items[0]).toMatchObject({ authorEmail: 'c0@bulk.example', postTitle: 'Paged comments live here' });
    expect(page.total).toBeGreaterThanOrEqual(COMMENTS / 4);
    expect(page.stats.total).toBe(commentsBefore + COMMENTS);
    expect(page.stats.pending + page.stats.approved).toBe(page.stats.total);
  });

  it('searches author, e-mail and text', async () => {
    const page = await get('/api/admin/comments?q=Comment%20number%2019999&page=1');
    expect(page.items.map((c: { authorEmail: string }) => c.authorEmail)).toEqual(['c19999@bulk.example']);
    expect((await get('/api/admin/comments?q=C123%40BULK&page=1')).total).toBe(1);
  });

  it('still answers every comment to the plain call', async () => {
    expect(await get('/api/admin/comments')).toHaveLength(commentsBefore + COMMENTS);
  });
});

describe('orders, paged on the server', () => {
  it('answers a page of one status, searches buyer and product, and figures the cards over every order', async () => {
    const refunded = await get('/api/admin/orders?status=refunded&pageSize=10');
    expect(refunded.items).toHaveLength(10);
    expect(refunded.items.every((o: { status: string }) => o.status === 'refunded')).toBe(true);
    expect(refunded.total).toBeGreaterThanOrEqual(ORDERS / 5);
    const byBuyer = await get('/api/admin/orders?q=buyer4242@');
    expect(byBuyer.items.map((o: { customerEmail: string }) => o.customerEmail)).toEqual(['buyer4242@bulk.example']);
    expect(byBuyer.items[0].deliveries).toEqual([]);
    expect(refunded.stats.paid).toBeGreaterThanOrEqual((ORDERS * 2) / 5);
    expect(refunded.stats.pendingOrFailed).toBeGreaterThanOrEqual((ORDERS * 2) / 5);
    expect(refunded.stats.revenue).toBeGreaterThanOrEqual(((ORDERS * 2) / 5) * 1000);
    expect(await get('/api/admin/orders')).toHaveLength(ordersBefore + ORDERS);
    expect(refunded.stats.total).toBe(ordersBefore + ORDERS);
  });
});

describe('users, paged on the server', () => {
  it('answers a page with the counts, and searches username, name and e-mail', async () => {
    await createUser(server, { username: 'paged-zelda', email: 'zelda@paged.example', isApproved: false });
    const page = await get('/api/admin/users?page=1&pageSize=2');
    expect(page.items).toHaveLength(2);
    // Newest first: the account made just now leads.
    expect(page.items[0].username).toBe('paged-zelda');
    const all = (await get('/api/admin/users')) as { isAdmin: boolean; isApproved: boolean }[];
    expect(page.total).toBe(all.length);
    expect(page.stats).toEqual({ total: all.length, approved: all.filter((u) => u.isApproved).length, admins: all.filter((u) => u.isAdmin).length, pending: all.filter((u) => !u.isApproved).length });
    expect((await get('/api/admin/users?q=ZELDA@PAGED')).items.map((u: { username: string }) => u.username)).toEqual(['paged-zelda']);
  });

  it('searches the e-mail the screen shows, not the stand-in of an account without one, in any alphabet', async () => {
    await createUser(server, { username: 'paged-nomail', email: 'paged-nomail@no-email.invalid', firstName: 'Øyvind' });
    const found = async (q: string) => ((await get(`/api/admin/users?q=${encodeURIComponent(q)}`)).items as { username: string }[]).map((u) => u.username);
    expect(await found('no-email.invalid')).toEqual([]);
    expect(await found('paged-nomail')).toEqual(['paged-nomail']);
    expect(await found('øYVIND')).toEqual(['paged-nomail']);
  });
});

describe('bad paging', () => {
  it('answers 400 and is for admins only', async () => {
    for (const path of ['/api/admin/comments?status=spam', '/api/admin/orders?status=mislaid', '/api/admin/users?pageSize=0', '/api/admin/comments?page=-1']) {
      expect((await admin.request('GET', path)).status, path).toBe(400);
    }
    for (const path of ['/api/admin/comments?page=1', '/api/admin/orders?page=1', '/api/admin/users?page=1']) {
      expect((await user.request('GET', path)).status, path).toBe(403);
    }
  });
});
