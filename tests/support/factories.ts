// Test data written straight into the server's SQLite file, and a small HTTP client that
// logs in for real through /api/login.
import { hashPassword } from 'better-auth/crypto';
import { randomUUID } from 'node:crypto';
import { accounts, users } from '#db/schema/auth.ts';
import { blogPosts, comments, newsletterSubscribers, podcastEpisodes } from '#db/schema/content.ts';
import { products } from '#db/schema/commerce.ts';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from './server.ts';

let seq = 0;
/** `prefix` and then a suffix no earlier call returned (the time and a counter, base 36). */
export const unique = (prefix = '') => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

export interface UserOpts {
  username?: string;
  password?: string;
  email?: string | null;
  firstName?: string | null;
  isAdmin?: boolean;
  isApproved?: boolean;
}

export async function createUser(server: TestServer, opts: UserOpts = {}) {
  const username = opts.username ?? unique('user');
  const password = opts.password ?? 'password123';
  const id = randomUUID();
  server.db
    .insert(users)
    .values({
      id,
      username: username.toLowerCase(),
      displayUsername: username,
      email: opts.email ?? `${username.toLowerCase()}@example.com`,
      name: username,
      firstName: opts.firstName ?? null,
      isAdmin: opts.isAdmin ?? false,
      isApproved: opts.isApproved ?? true,
    })
    .run();
  server.db
    .insert(accounts)
    .values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: await hashPassword(password) })
    .run();
  return { id, username, password };
}

export function createPost(server: TestServer, authorId: string, over: Partial<typeof blogPosts.$inferInsert> = {}) {
  const n = unique();
  return (
    server.db
      .insert(blogPosts)
      // Published when written unless told otherwise (lists order by when a post went public).
      .values({ title: `Post ${n}`, slug: `post-${n}`, content: `<p>Content of post ${n}</p>`, isPublished: true, publishedAt: over.createdAt ?? new Date(), authorId, ...over })
      .returning()
      .get()
  );
}

export function createEpisode(server: TestServer, over: Partial<typeof podcastEpisodes.$inferInsert> = {}) {
  const n = unique();
  return server.db
    .insert(podcastEpisodes)
    .values({ title: `Episode ${n}`, slug: `episode-${n}`, isPublished: true, episodeNumber: 1, duration: 600, ...over })
    .returning()
    .get();
}

export function createProduct(server: TestServer, over: Partial<typeof products.$inferInsert> = {}) {
  return server.db
    .insert(products)
    .values({ name: unique('Product '), price: 4900, isActive: true, ...over })
    .returning()
    .get();
}

export function createComment(server: TestServer, blogPostId: number, over: Partial<typeof comments.$inferInsert> = {}) {
  return server.db
    .insert(comments)
    .values({ content: 'Great post', authorName: 'Reader', authorEmail: 'reader@example.com', blogPostId, ...over })
    .returning()
    .get();
}

export function createSubscriber(server: TestServer, over: Partial<typeof newsletterSubscribers.$inferInsert> = {}) {
  return server.db
    .insert(newsletterSubscribers)
    .values({ email: `${unique('sub')}@example.com`, ...over })
    .returning()
    .get();
}

/**
 * A fetch wrapper that sends JSON (or a FormData body as it is, multipart) with the site's
 * Origin and keeps one session cookie.
 */
/** Posts a form to `path` as a browser without JavaScript would (its Origin, form-encoded, the redirect not followed). */
export function submitForm(server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export class Client {
  cookie = '';
  readonly server: TestServer;
  constructor(server: TestServer) {
    this.server = server;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    // fetch gives a FormData body its own multipart Content-Type.
    const sendsJson = body !== undefined && !(body instanceof FormData);
    const res = await fetch(`${this.server.url}${path}`, {
      method,
      redirect: 'manual',
      headers: { Origin: this.server.url, ...(sendsJson ? { 'Content-Type': 'application/json' } : {}), ...(this.cookie ? { Cookie: this.cookie } : {}), ...headers },
      body: body === undefined || body instanceof FormData || typeof body === 'string' ? body : JSON.stringify(body),
    });
    // Like a browser's jar: each cookie set replaces the one of its name; Max-Age=0 removes it.
    const setCookie = res.headers.getSetCookie();
    if (setCookie.length) {
      const jar = new Map(this.cookie ? this.cookie.split('; ').map((c) => [c.slice(0, c.indexOf('=')), c] as const) : []);
      for (const c of setCookie) {
        const pair = c.split(';')[0];
        const name = pair.slice(0, pair.indexOf('='));
        if (/;\s*max-age=0/i.test(c) || /;\s*expires=thu, 01 jan 1970/i.test(c)) jar.delete(name);
        else jar.set(name, pair);
      }
      this.cookie = [...jar.values()].join('; ');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the test reads `text`
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience: bodies are asserted field by field
    return { status: res.status, headers: res.headers, text, body: json as any };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body ?? {});
  put = (path: string, body?: unknown) => this.request('PUT', path, body ?? {});
  patch = (path: string, body?: unknown) => this.request('PATCH', path, body ?? {});
  delete = (path: string) => this.request('DELETE', path);

  async login(username: string, password: string) {
    const res = await this.post('/api/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    return this;
  }
}

/**
 * Uploads the way the admin screens do: asks for an upload URL (POST /api/objects/upload),
 * then PUTs the bytes there. Answers the PUT's status and JSON body.
 */
export async function uploadFile(as: Client, body: Buffer | string, type: string) {
  const slot = await as.post('/api/objects/upload');
  expect(slot.status).toBe(200);
  const res = await fetch(slot.body.uploadURL as string, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': type, Origin: as.server.url } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A logged-in client for a fresh user with the given role. */
export async function clientAs(server: TestServer, role: 'admin' | 'user') {
  const u = await createUser(server, { isAdmin: role === 'admin' });
  const client = await new Client(server).login(u.username, u.password);
  return Object.assign(client, { user: u });
}

export type SessionClient = Awaited<ReturnType<typeof clientAs>>;

/** One built server for the test file, started before its tests and stopped after; `use` receives it once it is up. */
export function serverForFile(use: (server: TestServer) => unknown, env: Record<string, string> = {}) {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    await use(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
}

/**
 * One built server for the test file (started before its tests, stopped after), with a
 * logged-in admin and a logged-in user; `use` receives them once they are ready.
 */
export function serverWithClients(use: (s: { server: TestServer; admin: SessionClient; user: SessionClient }) => void, env: Record<string, string> = {}) {
  serverForFile(async (server) => use({ server, admin: await clientAs(server, 'admin'), user: await clientAs(server, 'user') }), env);
}

/**
 * Waits until the UTC day has more than `ms` left (past midnight if need be): for a test whose
 * figures are a day's, so that the day cannot change under it.
 */
export async function clearOfUtcMidnight(ms = 120_000): Promise<void> {
  const left = 86_400_000 - (Date.now() % 86_400_000);
  if (left <= ms) await new Promise((r) => setTimeout(r, left + 1_000));
}
