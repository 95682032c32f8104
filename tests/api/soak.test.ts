// 30 s of mixed anonymous traffic at 32 connections: pages, feeds, HEADs, odd queries and
// comment posts (some caught by the honeypot). Afterwards every page and feed must be exactly
// what an uncached render gave before it started (nothing poisoned, nothing stale), and the
// server must not have grown by more than 50 MB. Memory is measured from the end of a 30 s
// warm-up with the same traffic: a fresh process grows to its working size under its first
// renders (JIT code, heap) and then holds there; growth past that is what a leak looks like.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '#db/schema/content.ts';
import { seedDemo } from '#scripts/seed.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

const SOAK_MS = 30_000;
const WARM_UP_MS = 30_000;
const CONNECTIONS = 32;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  seedDemo(server.db);
});
afterAll(async () => {
  await server?.stop();
});

/** The server process's resident memory in bytes. */
function rss(): number {
  const status = readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
const ODD = ['%00', 'abc%00def', '%22', '*', 'NEAR(a%20b)', '((a', '%F0%9F%98%80', 'x'.repeat(300), '%ED%A0%80', '%'];

describe('a soak of mixed anonymous traffic', () => {
  it('leaves every page and feed byte-identical to an uncached render, and memory where it was', async () => {
    const posts = server.db.query.blogPosts.findMany({ where: (p, { eq }) => eq(p.isPublished, true) }).sync();
    const paths = ['/', '/blog', '/podcast', '/work-with-me', '/newsletter', '/privacy-policy', '/rss.xml', '/podcast.xml', '/sitemap.xml', '/robots.txt', ...posts.map((p) => `/blog/${p.slug}`)];

    // Uncached renders, before any traffic.
    const reference = new Map<string, string>();
    for (const path of paths) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('x-cache'), path).toBe('MISS');
      reference.set(path, await res.text());
    }
    const commentsBefore = server.db.select().from(comments).all().length;

    const requests = [
      () => fetch(`${server.url}${pick(paths)}`),
      () => fetch(`${server.url}${pick(paths)}`, { method: 'HEAD' }),
      () => fetch(`${server.url}${pick(paths)}?utm_source=${Math.random()}`),
      () => fetch(`${server.url}/blog?q=${pick(ODD)}`),
      () => fetch(`${server.url}/blog?q=${Math.random().toString(36).slice(2)}&category=${pick(['All', 'Leadership', 'nope'])}`),
      () => fetch(`${server.url}/api/blog-posts/search?q=${pick(ODD)}`),
      () => fetch(`${server.url}/api/blog-posts/search?q=${Math.random().toString(36).slice(2)}`),
      () => fetch(`${server.url}/`, { headers: { Cookie: `site.session_token=${Math.random()}` } }),
      () =>
        fetch(`${server.url}/api/blog-posts/${pick(posts).id}/comments`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: server.url },
          body: JSON.stringify({ authorName: 'Soak', authorEmail: 'soak@example.com', content: 'Soak comment', ...(Math.random() < 0.5 ? { website: 'http://bot.example' } : {}) }),
        }),
    ];
    const statuses = new Map<number, number>();
    let sent = 0;
    const traffic = async (ms: number) => {
      const until = Date.now() + ms;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < until) {
            const res = await pick(requests)();
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            sent++;
          }
        }),
      );
    };
    await traffic(WARM_UP_MS);
    const startRss = rss();
    await traffic(SOAK_MS);
    const endRss = rss();
    console.log(`soak: ${sent} requests, RSS ${Math.round(startRss / 2 ** 20)} MB after the warm-up, ${Math.round(endRss / 2 ** 20)} MB at the end`);

    expect(sent).toBeGreaterThan(1000);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    for (const path of paths) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(reference.get(path));
    }
    // Comments were stored (waiting for approval), and none of them changed a public page.
    expect(server.db.select().from(comments).all().length).toBeGreaterThan(commentsBefore);
    expect(endRss - startRss).toBeLessThan(50 * 1024 * 1024);
  }, 150_000);
});
