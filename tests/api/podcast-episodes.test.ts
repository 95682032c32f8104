import { eq, max } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { podcastEpisodes } from '#db/schema/content.ts';
import { Client, createEpisode, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { expectInvalid, expectWritesRefused, refusedCallers } from '#tests/support/guards.ts';
import { ids } from '#tests/support/rows.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

/** A body the episode dialog would send. */
const episodeBody = (over: Record<string, unknown> = {}) => ({
  title: 'Leading Through Change',
  slug: unique('ep-'),
  description: 'How to lead a team through a reorganisation.',
  audioUrl: 'https://cdn.example.com/audio/ep.mp3',
  duration: 1800,
  episodeNumber: 1,
  guest: 'Grace Hopper',
  isPublished: false,
  ...over,
});

const rowById = (id: number) => server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, id)).get();
const rowBySlug = (slug: string) => server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.slug, slug)).get();
const countRows = () => server.db.select().from(podcastEpisodes).all().length;
const maxNumber = () =>
  server.db
    .select({ n: max(podcastEpisodes.episodeNumber) })
    .from(podcastEpisodes)
    .get()?.n ?? 0;

describe('episode CRUD as admin', () => {
  it('creates an episode (201) with every field, readable by id afterwards', async () => {
    const body = episodeBody({ episodeNumber: 42, isPublished: true });
    const res = await admin.post('/api/podcast-episodes', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, id: expect.any(Number) });
    const got = await new Client(server).get(`/api/podcast-episodes/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject(body);
  });

  it('accepts an episode with only title and slug, leaving the optional fields empty', async () => {
    const res = await admin.post('/api/podcast-episodes', { title: 'Minimal', slug: unique('ep-') });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, audioUrl: null, duration: null, guest: null, isPublished: false });
  });

  it('updates an episode with PUT and stores the change', async () => {
    const ep = createEpisode(server, { guest: 'Old Guest' });
    const body = episodeBody({ title: 'Renamed', guest: 'New Guest', duration: 61, episodeNumber: 7, isPublished: true });
    const res = await admin.put(`/api/podcast-episodes/${ep.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ep.id, ...body });
    expect(rowById(ep.id)).toMatchObject({ title: 'Renamed', guest: 'New Guest', duration: 61, episodeNumber: 7, slug: body.slug });
  });

  it('deletes an episode; a later GET answers 404', async () => {
    const ep = createEpisode(server);
    expect((await admin.delete(`/api/podcast-episodes/${ep.id}`)).status).toBe(200);
    expect(rowById(ep.id)).toBeUndefined();
    expect((await admin.get(`/api/podcast-episodes/${ep.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/podcast-episodes/${ep.id}`)).status).toBe(404);
  });

  it('answers 404 for GET, PUT and DELETE of an unknown or malformed id', async () => {
    const body = episodeBody();
    for (const id of ['987654', 'abc']) {
      expect((await admin.get(`/api/podcast-episodes/${id}`)).status).toBe(404);
      expect((await admin.put(`/api/podcast-episodes/${id}`, body)).status).toBe(404);
      expect((await admin.delete(`/api/podcast-episodes/${id}`)).status).toBe(404);
    }
    expect(rowBySlug(body.slug)).toBeUndefined();
  });
});

describe('episode validation', () => {
  it.each([
    ['a 1001-character description', { description: 'd'.repeat(1001) }, 'description', 'Description too long'],
    ['an audio URL that is not a URL', { audioUrl: 'not a url' }, 'audioUrl', 'Invalid audio URL'],
    ['a javascript: audio URL', { audioUrl: 'javascript:alert(1)' }, 'audioUrl', 'Invalid audio URL'],
    ['a 256-character guest name', { guest: 'g'.repeat(256) }, 'guest', 'Guest name too long'],
  ])('refuses %s with 400 and the spec message', async (_label, over, field, message) => {
    const body = episodeBody(over);
    const res = await admin.post('/api/podcast-episodes', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: [field], message });
    expect(rowBySlug(body.slug)).toBeUndefined();
  });

  it.each([
    ['a duration of 0', { duration: 0 }, 'duration'],
    ['a negative duration', { duration: -5 }, 'duration'],
    ['a duration sent as text', { duration: 'long' }, 'duration'],
    ['an episode number of 0', { episodeNumber: 0 }, 'episodeNumber'],
    ['an episode number sent as text', { episodeNumber: 'one' }, 'episodeNumber'],
    ['a missing title', { title: undefined }, 'title'],
    ['a 256-character title', { title: 't'.repeat(256) }, 'title'],
    ['a missing slug', { slug: undefined }, 'slug'],
    ['a string isPublished', { isPublished: 'yes' }, 'isPublished'],
  ])('refuses %s with 400 naming the field', async (_label, over, field) => {
    const issues = await expectInvalid(() => admin.post('/api/podcast-episodes', episodeBody(over)), countRows);
    expect(issues.map((i) => i.path)).toContainEqual([field]);
  });

  it('accepts the limits themselves: a 1000-character description, a 255-character guest, duration 1', async () => {
    const res = await admin.post('/api/podcast-episodes', episodeBody({ description: 'd'.repeat(1000), guest: 'g'.repeat(255), duration: 1, audioUrl: '' }));
    expect(res.status).toBe(201);
    expect(res.body.audioUrl).toBeNull();
  });

  it('PUT validates like POST and leaves the episode unchanged', async () => {
    const ep = createEpisode(server, { title: 'Before' });
    const res = await admin.put(`/api/podcast-episodes/${ep.id}`, episodeBody({ slug: ep.slug, duration: 0 }));
    expect(res.status).toBe(400);
    expect(rowById(ep.id)?.title).toBe('Before');
  });
});

describe('episode numbers and slugs', () => {
  it('gives a new episode without a number the highest existing number plus 1', async () => {
    const top = maxNumber() + 10;
    createEpisode(server, { episodeNumber: top });
    const body = episodeBody();
    delete (body as Partial<typeof body>).episodeNumber;
    const res = await admin.post('/api/podcast-episodes', body);
    expect(res.status).toBe(201);
    expect(res.body.episodeNumber).toBe(top + 1);

    const again = episodeBody({ episodeNumber: null });
    const res2 = await admin.post('/api/podcast-episodes', again);
    expect(res2.status).toBe(201);
    expect(res2.body.episodeNumber).toBe(top + 2);
  });

  it('refuses a duplicate slug with 409 on create, keeping one row', async () => {
    const ep = createEpisode(server);
    const res = await admin.post('/api/podcast-episodes', episodeBody({ slug: ep.slug }));
    expect(res.status).toBe(409);
    expect(server.db.select().from(podcastEpisodes).where(eq(podcastEpisodes.slug, ep.slug)).all()).toHaveLength(1);
  });

  it('refuses taking another episode slug on update with 409, and lets an episode keep its own', async () => {
    const a = createEpisode(server);
    const b = createEpisode(server, { title: 'Episode B' });
    const clash = await admin.put(`/api/podcast-episodes/${b.id}`, episodeBody({ slug: a.slug, title: 'Renamed B' }));
    expect(clash.status).toBe(409);
    expect(rowById(b.id)).toMatchObject({ slug: b.slug, title: 'Episode B' });
    const own = await admin.put(`/api/podcast-episodes/${b.id}`, episodeBody({ slug: b.slug, title: 'Renamed B' }));
    expect(own.status).toBe(200);
    expect(rowById(b.id)?.title).toBe('Renamed B');
  });
});

describe('drafts', () => {
  it('keeps drafts out of the public list and ?published=true, but shows them to the admin', async () => {
    const draft = createEpisode(server, { isPublished: false, title: 'Unreleased episode' });
    const live = createEpisode(server);

    const anon = await new Client(server).get('/api/podcast-episodes');
    expect(anon.status).toBe(200);
    expect(ids(anon.body)).toContain(live.id);
    expect(ids(anon.body)).not.toContain(draft.id);
    expect(anon.text).not.toContain('Unreleased episode');

    const anonPublished = await new Client(server).get('/api/podcast-episodes?published=true');
    expect(ids(anonPublished.body)).toContain(live.id);
    expect(ids(anonPublished.body)).not.toContain(draft.id);

    expect(ids((await user.get('/api/podcast-episodes')).body)).not.toContain(draft.id);
    expect(ids((await admin.get('/api/podcast-episodes?published=true')).body)).not.toContain(draft.id);
    expect(ids((await admin.get('/api/podcast-episodes')).body)).toEqual(expect.arrayContaining([draft.id, live.id]));
  });

  it('answers 404 for a draft by id to a visitor and a non-admin, 200 to an admin', async () => {
    const draft = createEpisode(server, { isPublished: false });
    expect((await new Client(server).get(`/api/podcast-episodes/${draft.id}`)).status).toBe(404);
    expect((await user.get(`/api/podcast-episodes/${draft.id}`)).status).toBe(404);
    const res = await admin.get(`/api/podcast-episodes/${draft.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: draft.id, isPublished: false });
  });
});

describe('guards', () => {
  it.each(refusedCallers(() => ({ server, user }), { title: 'Guarded' }, { title: 'Guarded 2' }))(
    'answers $status to $who on POST, PUT and DELETE and changes nothing',
    async ({ as, status, title }) => {
      const ep = createEpisode(server, { title });
      const body = episodeBody();
      await expectWritesRefused(as(), status, '/api/podcast-episodes', ep.id, { create: body, update: episodeBody({ slug: ep.slug, title: 'X' }) });
      expect(rowBySlug(body.slug)).toBeUndefined();
      expect(rowById(ep.id)?.title).toBe(title);
    },
  );
});
