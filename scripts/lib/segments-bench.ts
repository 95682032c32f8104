// A segment's count at size, for `npm run bench`: a fresh site gets 50,000 subscribers (every
// fifth inactive) and 20 tags, each subscriber holding three of them; a segment 'any of two tags,
// none of a third, subscribed in the last year' is saved, then its count is read through
// GET /api/admin/segments/{id} and POST /api/admin/segments/count, 200 sequential calls each.
// Prints p50/p99 (never asserts them); the aim is p99 ≤ 50 ms.
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { seedSubscribers } from '#scripts/lib/admin-bench.ts';

export const SEGMENT_SUBSCRIBERS = 50_000;
export const SEGMENT_TAGS = 20;
const SEQUENTIAL = 200;

/** The bench's own helpers (scripts/bench.ts), passed in so that nothing moves. */
export interface SegmentTools {
  tmp: string;
  startSite: (db: string, seed: boolean) => Promise<{ url: string; proc: ChildProcess }>;
  adminCookie: (base: string) => Promise<string>;
  timed: (url: string, headers: Record<string, string>, n: number) => Promise<{ p50: number; p99: number }>;
}

/** 20 tags, and three of them on every subscriber (spread so that each tag holds about 7,500). */
function seedTags(dbFile: string): void {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  db.transaction(() => {
    const tag = db.prepare('insert into tags (name) values (?)');
    for (let t = 0; t < SEGMENT_TAGS; t++) tag.run(`topic-${t}`);
    const ids = (db.prepare('select id from tags order by id').all() as { id: number }[]).map((r) => r.id);
    const hold = db.prepare('insert or ignore into subscriber_tags (subscriber_id, tag_id) select id, ? from newsletter_subscribers where id % ? = ?');
    // Subscriber n holds tags n mod 20, (n * 7) mod 20 and (n * 13 + 5) mod 20, each set in one statement per tag and residue.
    for (let r = 0; r < SEGMENT_TAGS; r++) {
      hold.run(ids[r]!, SEGMENT_TAGS, r);
      hold.run(ids[(r * 7) % SEGMENT_TAGS]!, SEGMENT_TAGS, r);
      hold.run(ids[(r * 13 + 5) % SEGMENT_TAGS]!, SEGMENT_TAGS, r);
    }
  })();
  db.pragma('optimize');
  db.close();
}

export async function segmentFigures(tools: SegmentTools): Promise<void> {
  const dbFile = `${tools.tmp}/segments.db`;
  const site = await tools.startSite(dbFile, false);
  try {
    seedSubscribers(dbFile, 0, SEGMENT_SUBSCRIBERS);
    seedTags(dbFile);
    const headers = { Origin: site.url, Cookie: await tools.adminCookie(site.url), 'Content-Type': 'application/json' };
    const match = { tagsAny: ['topic-1', 'topic-2'], tagsNone: ['topic-3'], subscribedAfter: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) };
    const saved = (await (await fetch(`${site.url}/api/admin/segments`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench', match }) })).json()) as { id: number; count: number };
    console.log(`\nsegment count at ${SEGMENT_SUBSCRIBERS.toLocaleString('en-US')} subscribers with ${SEGMENT_TAGS} tags (3 each); the segment holds ${saved.count.toLocaleString('en-US')} active`);
    console.log(`call (${SEQUENTIAL} sequential)                          p50 ms   p99 ms`);
    const get = await tools.timed(`${site.url}/api/admin/segments/${saved.id}`, headers, SEQUENTIAL);
    console.log(`GET /api/admin/segments/{id}                  ${get.p50.toFixed(1).padStart(8)} ${get.p99.toFixed(1).padStart(8)}`);
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t0 = performance.now();
      await (
        await fetch(`${site.url}/api/admin/segments/count`, { method: 'POST', headers, body: JSON.stringify({ match: { tagsAll: ['topic-4', 'topic-8'], tagsNone: ['topic-0'] } }) })
      ).arrayBuffer();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(SEQUENTIAL - 1, Math.floor(SEQUENTIAL * q))]!;
    console.log(`POST /api/admin/segments/count (all 2, none 1) ${p(0.5).toFixed(1).padStart(7)} ${p(0.99).toFixed(1).padStart(8)}`);
    console.log(`aim: p99 ≤ 50 ms`);
  } finally {
    site.proc.kill('SIGTERM');
  }
}
