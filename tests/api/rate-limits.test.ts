import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcasts } from '#db/schema/broadcasts.ts';
import { comments, newsletterSubscribers } from '#db/schema/content.ts';
import { Client, createPost, createUser } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'on' });
});
afterAll(async () => {
  await server?.stop();
});

describe('rate limits', () => {
  it("count a newsletter issue's opens and clicks from one address 30 times at most, and the image and link still work", async () => {
    const issue = server.db.insert(broadcasts).values({ subject: 'Counted', content: '<p>Hi</p>', slug: 'counted', track: true }).returning().get();
    const to = 'https://example.org/read';
    // Signed as the issue's own links are, with the test server's secret.
    const signature = createHmac('sha256', 'test-secret-test-secret-test-secret-0123456789').update(`issue-click:${issue.id}:${to}`).digest('base64url').slice(0, 22);
    const click = `/newsletter/c/${issue.id}?u=${encodeURIComponent(to)}&s=${signature}`;
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36' };
    const status = (path: string) => fetch(`${server.url}${path}`, { headers: browser, redirect: 'manual' }).then(async (r) => (await r.arrayBuffer(), r.status));
    for (let i = 0; i < 40; i++) expect(await status(`/newsletter/o/${issue.id}.gif`)).toBe(200);
    for (let i = 0; i < 40; i++) expect(await status(click)).toBe(302);
    expect(server.db.select().from(broadcasts).where(eq(broadcasts.id, issue.id)).get()).toMatchObject({ opens: 30, clicks: 30 });
  });

  it('answer 429 after repeated bad logins, for that account only, with Retry-After', async () => {
    const victim = await createUser(server);
    const other = await createUser(server);
    const c = new Client(server);
    for (let i = 0; i < 5; i++) expect((await c.post('/api/login', { username: victim.username, password: 'wrong-guess' })).status).toBe(401);
    const blocked = await c.post('/api/login', { username: victim.username, password: victim.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account from the same address still logs in.
    expect((await new Client(server).post('/api/login', { username: other.username, password: other.password })).status).toBe(200);
  });

  it("count a signed-in session's wrong passwords against the account too: a stolen session is no password oracle", async () => {
    const u = await createUser(server);
    const session = await new Client(server).login(u.username, u.password);
    for (let i = 0; i < 3; i++) expect((await session.post('/api/account/password', { currentPassword: `guess-number-${i}`, newPassword: 'a-new-long-password-1' })).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await session.post('/api/auth/two-factor/enable', { password: `guess-again-${i}` })).status).toBe(400);
    // Five wrong: the right password waits too, and so does the sign-in page.
    const right = await session.post('/api/account/password', { currentPassword: u.password, newPassword: 'a-new-long-password-1' });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await session.post('/api/auth/two-factor/enable', { password: u.password })).status).toBe(429);
    expect((await new Client(server).post('/api/login', { username: u.username, password: u.password })).status).toBe(429);
  });

  it('limit registrations, comments and subscriptions per address', async () => {
    const author = await createUser(server, { isAdmin: true });
    const post = createPost(server, author.id);
    const c = new Client(server);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await c.post('/api/newsletter/subscribe', { email: `burst${i}@example.com` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(
      server.db
        .select()
        .from(newsletterSubscribers)
        .all()
        .filter((s) => s.email.startsWith('burst')),
    ).toHaveLength(10);

    const commentStatuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      commentStatuses.push((await c.post(`/api/blog-posts/${post.id}/comments`, { authorName: 'A', authorEmail: 'a@example.com', content: `c${i}` })).status);
    }
    expect(commentStatuses.at(-1)).toBe(429);

    const regStatuses: number[] = [];
    for (let i = 0; i < 11; i++) regStatuses.push((await c.post('/api/register', { username: `reg${i}x`, password: 'secret1x' })).status);
    expect(regStatuses.at(-1)).toBe(429);
  });
  it("limit the posts of a sign-in alert's 'End that session' link per address", async () => {
    const c = new Client(server);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await c.post('/api/account/session-end', { s: `made-up-${i}`, sig: 'not-a-signature' })).status);
    // A made-up link is refused as such until the address has tried too often.
    expect(statuses.slice(0, 20).every((s) => s === 403)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('limit page-view beacons per address, in one table for the fast path and the app', async () => {
    const view = (path = '/api/event') =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' },
        body: JSON.stringify({ n: 'pageview', u: `${server.url}/blog`, r: '', w: 1280 }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++) statuses.push((await view()).status);
    expect(statuses.every((s) => s === 202)).toBe(true);
    const blocked = await view();
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The app's own route (an address with a query string) counts in the same table.
    expect((await view('/api/event?from=app')).status).toBe(429);
  });
});

describe('spam screening', () => {
  // A server of its own, without limits, so the answers are the screening's alone.
  let open: TestServer;
  beforeAll(async () => {
    open = await startServer({ FORM_MIN_FILL_MS: '800' });
  });
  afterAll(async () => {
    await open?.stop();
  });

  it('stores nothing when the honeypot is filled, yet answers like success', async () => {
    const author = await createUser(open, { isAdmin: true });
    const post = createPost(open, author.id);
    const bot = { authorName: 'Bot', authorEmail: 'bot@example.com', content: 'buy now', website: 'http://spam.example' };
    expect((await new Client(open).post(`/api/blog-posts/${post.id}/comments`, bot)).status).toBe(201);
    expect(open.db.select().from(comments).where(eq(comments.authorName, 'Bot')).all()).toEqual([]);
    expect((await new Client(open).post('/api/newsletter/subscribe', { email: 'bot@example.com', website: 'x' })).status).toBe(201);
    expect(open.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'bot@example.com')).all()).toEqual([]);
  });

  it('refuses a form sent faster than a person could fill it, and takes a normal one', async () => {
    const fast = await new Client(open).post('/api/newsletter/subscribe', { email: 'speedy@example.com', elapsedMs: 50 });
    expect(fast.status).toBe(400);
    expect(open.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'speedy@example.com')).all()).toEqual([]);
    const human = await new Client(open).post('/api/newsletter/subscribe', { email: 'speedy@example.com', elapsedMs: 4000, website: '' });
    expect(human.status).toBe(201);
  });
});
