// Every route under src/pages/api, every verb, hostile input: never a 5xx. Requests are sent as
// an admin so the auth guards answer nothing on the handlers' behalf.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientAs, createComment, createEpisode, createPost, createProduct, createSubscriber, createUser, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { ROOT } from '#scripts/lib/paths.ts';
import type { TestServer } from '#tests/support/server.ts';

const API_DIR = join(ROOT, 'src', 'pages', 'api');
const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface Route {
  /** e.g. /api/blog-posts/[id]/comments */
  pattern: string;
  /** Verbs the file exports. */
  exported: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

/** The routes as Astro serves them, read from the file tree. */
function listRoutes(): Route[] {
  return walk(API_DIR)
    .map((file) => {
      const rel = relative(API_DIR, file)
        .split(sep)
        .join('/')
        .replace(/\.(ts|js|mjs)$/, '');
      const pattern = `/api/${rel}`.replace(/\/index$/, '');
      const src = readFileSync(file, 'utf8');
      const exported = [...src.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE|ALL)\b/g)].map((m) => m[1]);
      return { pattern, exported };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

const ROUTES = listRoutes();

let server: TestServer;
let admin: SessionClient;
serverWithClients((s) => ({ server, admin } = s));

const HUGE = 'x'.repeat(100_000);

const FIELDS = [
  'title',
  'slug',
  'excerpt',
  'content',
  'featuredImage',
  'category',
  'isPublished',
  'readTime',
  'description',
  'audioUrl',
  'duration',
  'episodeNumber',
  'guest',
  'name',
  'price',
  'stripePriceId',
  'isActive',
  'email',
  'authorName',
  'authorEmail',
  'isApproved',
  'isAdmin',
  'username',
  'password',
  'firstName',
  'lastName',
  'id',
  'blogPostId',
  'authorId',
];

/** A body the route would accept, so that one huge field is the only thing wrong. */
function validBody(pattern: string): Record<string, unknown> {
  if (pattern.startsWith('/api/blog-posts/[id]/comments')) {
    return { authorName: 'Robust', authorEmail: `${unique('r')}@example.com`, content: 'Robust comment' };
  }
  if (pattern.startsWith('/api/blog-posts')) {
    return { title: 'Robust', slug: unique('robust-'), excerpt: '', content: '<p>x</p>', featuredImage: '', category: 'General', isPublished: true };
  }
  if (pattern.startsWith('/api/podcast-episodes')) {
    return { title: 'Robust', slug: unique('robust-ep-'), description: 'd', audioUrl: '', duration: 60, episodeNumber: 1, guest: 'g', isPublished: true };
  }
  if (pattern.startsWith('/api/products')) return { name: 'Robust', description: 'd', price: 100, stripePriceId: '', isActive: true };
  if (pattern === '/api/newsletter/subscribe') return { email: `${unique('n')}@example.com`, name: 'N' };
  if (pattern.startsWith('/api/admin/users/')) return { isApproved: true };
  if (pattern === '/api/login') return { username: 'nobody-here', password: 'wrong-password' };
  if (pattern === '/api/register') {
    return { username: unique('robust'), email: `${unique('reg')}@example.com`, firstName: 'F', lastName: 'L', password: 'secret1x' };
  }
  return {};
}

/** Raw bodies sent with Content-Type: application/json. */
function bodyVariants(pattern: string): [string, string][] {
  const valid = validBody(pattern);
  const keys = [...new Set([...Object.keys(valid), ...FIELDS])];
  const out: [string, string][] = [
    ['malformed JSON', '{"title": "x", '],
    ['truncated JSON', '{'],
    ['JSON array', '[]'],
    ['JSON array of objects', JSON.stringify([valid])],
    ['JSON null', 'null'],
    ['JSON string', '"just a string"'],
    ['JSON number', '123'],
    ['JSON true', 'true'],
    ['huge JSON string', JSON.stringify(HUGE)],
    ['every field huge', JSON.stringify(Object.fromEntries(keys.map((k) => [k, HUGE])))],
    ['every field an object', JSON.stringify(Object.fromEntries(keys.map((k) => [k, { nested: [1, 2] }])))],
    ['every field null', JSON.stringify(Object.fromEntries(keys.map((k) => [k, null])))],
    ['every field a huge number', JSON.stringify(Object.fromEntries(keys.map((k) => [k, 1e308])))],
    ['deeply nested JSON', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['__proto__ key', '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}'],
    ['empty body', ''],
  ];
  for (const k of Object.keys(valid)) {
    out.push([`valid body with ${k} huge`, JSON.stringify({ ...validBody(pattern), [k]: HUGE })]);
  }
  return out;
}

const UNKNOWN_IDS = [
  '987654',
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '99999999999999999999',
  '9007199254740993',
  'Infinity',
  'NaN',
  'null',
  'undefined',
  '%20',
  '%00',
  '%E0%A4%A',
  '%25',
  "1'%20OR%20'1'%3D'1",
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(300),
  '%F0%9F%98%80',
];

/** Ids of rows that exist, made fresh for each test. */
function realValues(pattern: string): string[] {
  const post = createPost(server, admin.user.id);
  if (pattern.includes('[slug]')) {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null });
    return [post.slug, draft.slug];
  }
  if (pattern.startsWith('/api/blog-posts/[id]')) {
    const draft = createPost(server, admin.user.id, { isPublished: false, publishedAt: null });
    return [String(post.id), String(draft.id)];
  }
  if (pattern.startsWith('/api/admin/comments/[id]')) return [String(createComment(server, post.id).id)];
  if (pattern.startsWith('/api/podcast-episodes/[id]')) return [String(createEpisode(server).id)];
  if (pattern.startsWith('/api/products/[id]')) return [String(createProduct(server).id)];
  if (pattern.startsWith('/api/newsletter/subscribers/[id]')) return [String(createSubscriber(server).id)];
  return [];
}

function fill(pattern: string, value: string): string {
  return pattern.replace(/\[[^\]]+\]/, value);
}

interface Failure {
  request: string;
  status: number;
  body: string;
}

async function send(client: SessionClient, failures: Failure[], label: string, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  let status: number;
  let text: string;
  try {
    const res = await client.request(method, path, body, headers);
    status = res.status;
    text = res.text;
  } catch (err) {
    status = -1;
    text = `${String(err)} ${String((err as Error).cause)}`;
  }
  // This server runs without Stripe keys: payment routes answer 503 'not configured' by design
  // (an operator's state, not a crash); any other 5xx is a failure.
  const notConfigured = status === 503 && /not configured/.test(text);
  if ((status >= 500 && !notConfigured) || status < 0) failures.push({ request: `${method} ${path} [${label}]`, status, body: text.slice(0, 300) });
}

describe('the route list', () => {
  it('finds the API routes in src/pages/api', () => {
    const patterns = ROUTES.map((r) => r.pattern);
    expect(patterns).toEqual(
      expect.arrayContaining([
        '/api/blog-posts',
        '/api/blog-posts/[id]',
        '/api/blog-posts/[id]/comments',
        '/api/blog-posts/slug/[slug]',
        '/api/admin/comments',
        '/api/admin/comments/[id]/approve',
        '/api/admin/users/[userId]',
        '/api/newsletter/subscribe',
        '/api/products/[id]',
        '/api/podcast-episodes/[id]',
      ]),
    );
    for (const r of ROUTES) expect(r.exported.length, r.pattern).toBeGreaterThan(0);
  });
});

const EXPORTED = ROUTES.flatMap((r) => (r.exported.includes('ALL') ? [...VERBS] : r.exported).map((v) => [`${v} ${r.pattern}`, v, r] as const));
const UNEXPORTED = ROUTES.flatMap((r) => (r.exported.includes('ALL') ? [] : VERBS.filter((v) => !r.exported.includes(v)).map((v) => [`${v} ${r.pattern}`, v, r] as const)));

describe('verbs a route does not handle', () => {
  it.each(UNEXPORTED)('%s answers a complete 404 or 405, never 5xx', async (_label, method, route) => {
    const failures: Failure[] = [];
    const path = fill(route.pattern.replace(/\[userId\]/, 'no-such-user').replace(/\[slug\]/, 'no-such-slug'), '987654');
    const statuses: number[] = [];
    for (const body of method === 'GET' ? [undefined] : ['{"title": "x"', JSON.stringify({ title: HUGE })]) {
      try {
        const res = await admin.request(method, path, body);
        statuses.push(res.status);
        if (res.status >= 500) failures.push({ request: `${method} ${path}`, status: res.status, body: res.text.slice(0, 300) });
      } catch (err) {
        failures.push({ request: `${method} ${path}`, status: -1, body: `${String(err)} ${String((err as Error).cause)}` });
      }
    }
    expect(failures).toEqual([]);
    for (const s of statuses) expect([404, 405]).toContain(s);
  });
});

describe('hostile input to every handler', () => {
  it.each(EXPORTED)('%s never answers 5xx', async (_label, method, route) => {
    // Logging out ends the session it is sent with: give that route a session of its own.
    const client = route.pattern === '/api/logout' ? await clientAs(server, 'admin') : admin;
    const failures: Failure[] = [];
    const hasParam = route.pattern.includes('[');

    const reals = hasParam ? realValues(route.pattern) : [];
    if (route.pattern === '/api/admin/users/[userId]') {
      reals.push((await createUser(server)).id, admin.user.id);
    }
    const unknownForParam = route.pattern.includes('[userId]')
      ? ['no-such-user', '00000000-0000-4000-8000-000000000000', 'x'.repeat(65)]
      : route.pattern.includes('[slug]')
        ? ['no-such-slug']
        : ['987654'];

    // 1. Odd and unknown ids, with an ordinary request.
    if (hasParam) {
      for (const id of [...UNKNOWN_IDS, ...unknownForParam]) {
        const path = fill(route.pattern, id);
        if (method === 'GET') await send(client, failures, `id ${id}`, method, path);
        else await send(client, failures, `id ${id}`, method, path, JSON.stringify(validBody(route.pattern)));
      }
    }

    // 2. Hostile bodies, on a real id and on an unknown one.
    const paths = hasParam ? [...reals, unknownForParam[0]].map((v) => fill(route.pattern, v)) : [route.pattern];
    for (const path of paths) {
      if (method === 'GET') {
        for (const q of ['?published=maybe', '?published=true&published=false', '?published[]=1', `?published=${'x'.repeat(8000)}`, '?%E0%A4%A=1']) {
          await send(client, failures, `query ${q.slice(0, 40)}`, method, `${path}${q}`);
        }
        continue;
      }
      for (const [label, body] of bodyVariants(route.pattern)) {
        await send(client, failures, label, method, path, body);
      }
      await send(client, failures, 'text/plain body', method, path, JSON.stringify(validBody(route.pattern)), { 'Content-Type': 'text/plain' });
      await send(client, failures, 'no content type', method, path, JSON.stringify(validBody(route.pattern)), { 'Content-Type': '' });
    }

    expect(failures).toEqual([]);
    if (client === admin) {
      // The admin session survived: the handlers, not the guards, answered.
      const me = await admin.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.body.isAdmin).toBe(true);
    }
  });
});
