// The server killed and started again (an upgrade, a crash) in the middle of a day: the day's
// salt was in memory only, never on disk, so the count starts anew: the same visitor and the
// same podcast listener count again after the restart, and no salt file is left beside the
// database (one an earlier version kept is deleted).
import { existsSync, writeFileSync } from 'node:fs';
import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { analyticsEvents } from '#db/schema/analytics.ts';
import { clearOfUtcMidnight, clientAs, unique } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';
import type { AnalyticsDto, EpisodeDownloadsDto } from '#shared/schemas/analytics.ts';

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const APP = 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)';
const IP = '203.0.113.77';
/** The site's address stays the same across the restart (the test server's port does not). */
const SITE = { TRUST_PROXY: '1', SITE_URL: 'https://coach.example' };

let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
});

const today = () => new Date().toISOString().slice(0, 10);

async function visitAndListen(s: TestServer, path: string, episodeId: number) {
  const view = await fetch(`${s.url}/api/event`, {
    method: 'POST',
    headers: { 'X-Forwarded-For': IP, 'User-Agent': UA, Origin: SITE.SITE_URL, 'Content-Type': 'application/json' },
    body: JSON.stringify({ n: 'pageview', u: `${SITE.SITE_URL}${path}`, r: 'https://news.ycombinator.com/', w: 1280 }),
  });
  expect(view.status).toBe(202);
  const audio = await fetch(`${s.url}/podcast/e/${episodeId}/episode.mp3`, { redirect: 'manual', headers: { 'X-Forwarded-For': IP, 'User-Agent': APP } });
  expect(audio.status).toBe(302);
}

describe('a restart in the middle of the day', () => {
  it('starts the day’s count anew: the salt was never on disk, and a salt file an earlier version left is deleted', async () => {
    await clearOfUtcMidnight();
    server = await startServer(SITE);
    const dbFile = server.dbFile;
    const salt = `${dbFile}.analytics-salt`;
    let admin = await clientAs(server, 'admin');
    const made = await admin.post('/api/podcast-episodes', { title: `Restart ${unique()}`, slug: unique('restart-'), description: 'x', audioUrl: '/audio/demo/episode-1.mp3', isPublished: true });
    expect(made.status, made.text).toBe(201);
    const episodeId = made.body.id as number;

    await visitAndListen(server, '/blog', episodeId);
    expect(existsSync(salt)).toBe(false);
    // Written (within a second), then the process is killed: nothing is asked to finish.
    for (let i = 0; i < 50 && server.db.select({ n: count() }).from(analyticsEvents).get()!.n === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(server.db.select({ n: count() }).from(analyticsEvents).get()!.n).toBe(1);
    server.proc.kill('SIGKILL');
    await new Promise((r) => server!.proc.once('exit', r));
    server.db.$client.close();

    // What an earlier version kept beside the database goes with the first salt made.
    writeFileSync(salt, JSON.stringify({ day: today(), salt: 'ab'.repeat(32) }), { mode: 0o600 });
    server = await startServer({ ...SITE, DATABASE_URL: dbFile });
    admin = await clientAs(server, 'admin');
    await visitAndListen(server, '/about', episodeId);
    expect(existsSync(salt)).toBe(false);

    const figures = (await admin.get(`/api/admin/analytics?from=${today()}&to=${today()}`)).body as AnalyticsDto;
    expect({ visitors: figures.visitors, pageviews: figures.pageviews, visits: figures.visits }).toEqual({ visitors: 2, pageviews: 2, visits: 2 });
    const downloads = (await admin.get(`/api/admin/analytics/downloads?from=${today()}&to=${today()}`)).body as { episodes: EpisodeDownloadsDto[] };
    expect(downloads.episodes.find((e) => e.episodeId === episodeId)).toMatchObject({ downloads: 2, allTime: 2 });
  });
});
