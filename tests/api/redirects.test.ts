import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redirects } from '#db/schema/content.ts';
import { Client, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { expectInvalid, expectWritesRefused, refusedCallers } from '#tests/support/guards.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const PATH = '/api/admin/redirects';

/** An old address no other test uses: '/old/<suffix>'. */
const oldPath = () => `/old/${unique('post-')}`;

const rowById = (id: number) => server.db.select().from(redirects).where(eq(redirects.id, id)).get();
const rowByFrom = (fromPath: string) => server.db.select().from(redirects).where(eq(redirects.fromPath, fromPath)).get();
const countRows = () => server.db.select().from(redirects).all().length;

/** An anonymous GET that does not follow redirects. */
const visit = (path: string) => new Client(server).get(path);

/** Creates a redirect as the admin and answers its row as the API returned it. */
async function addRedirect(fromPath: string, toPath: string) {
  const res = await admin.post(PATH, { fromPath, toPath });
  expect(res.status).toBe(201);
  return res.body as { id: number; fromPath: string; toPath: string; hits: number };
}

/** The home page's own section, which no other page has. */
const HOME_MARK = 'id="track-record"';

describe('an admin adds a redirect and old addresses follow it', () => {
  it('creates a redirect (201) from a lower-cased path without its trailing slash, added by hand with no hits', async () => {
    const from = `${oldPath()}/`;
    const res = await admin.post(PATH, { fromPath: from.toUpperCase(), toPath: '/blog/new-home' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), fromPath: from.slice(0, -1), toPath: '/blog/new-home', hits: 0, lastHitAt: null, source: 'manual' });
    expect(rowById(res.body.id)).toMatchObject({ fromPath: from.slice(0, -1), toPath: '/blog/new-home', source: 'manual' });
  });

  it('answers a visit to the old path 301 to the new one, for the trailing-slash and upper-case forms too, counting each visit', async () => {
    const from = oldPath();
    const r = await addRedirect(from, '/blog/moved-here');
    for (const path of [from, `${from}/`, from.toUpperCase(), `${from.toUpperCase()}/`]) {
      const res = await visit(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe('/blog/moved-here');
    }
    expect(rowById(r.id)?.hits).toBe(4);

    const listed = (await admin.get(PATH)).body as { id: number; hits: number; lastHitAt: string | null; source: string }[];
    const shown = listed.find((x) => x.id === r.id);
    expect(shown).toMatchObject({ hits: 4, source: 'manual' });
    expect(Date.parse(shown?.lastHitAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('lists redirects newest first, with hits, last visit and source', async () => {
    const first = await addRedirect(oldPath(), '/blog/a');
    const second = await addRedirect(oldPath(), '/blog/b');
    const res = await admin.get(PATH);
    expect(res.status).toBe(200);
    const ids = (res.body as { id: number }[]).map((x) => x.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body[ids.indexOf(second.id)]).toEqual({
      id: second.id,
      fromPath: second.fromPath,
      toPath: '/blog/b',
      hits: 0,
      lastHitAt: null,
      source: 'manual',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('takes a full URL of the old site as its path, and may lead to another site', async () => {
    const from = oldPath();
    const r = await addRedirect(`https://old.example.com${from}/?utm_source=x`, 'https://elsewhere.example.org/talk');
    expect(r).toMatchObject({ fromPath: from, toPath: 'https://elsewhere.example.org/talk' });
    const res = await visit(from);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('https://elsewhere.example.org/talk');
  });

  it("follows WordPress's '/?p=123' once a redirect names it, while '/' and '/?p=999' stay the home page", async () => {
    // Visited first, so the home page is cached for '/?p=123': adding the redirect must drop it.
    const before = await visit('/?p=123');
    expect(before.status).toBe(200);
    expect(before.text).toContain(HOME_MARK);

    const r = await addRedirect('https://old.example.com/?p=123', '/blog/post-123');
    expect(r.fromPath).toBe('/?p=123');
    const res = await visit('/?p=123');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/blog/post-123');
    expect(rowById(r.id)?.hits).toBe(1);

    for (const path of ['/', '/?p=999']) {
      const home = await visit(path);
      expect(home.status, path).toBe(200);
      expect(home.text, path).toContain(HOME_MARK);
    }
  });

  it('never redirects a page that exists: a redirect from /blog is kept but /blog still answers 200', async () => {
    const r = await addRedirect('/blog', '/podcast');
    expect(r.fromPath).toBe('/blog');
    const res = await visit('/blog');
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(rowById(r.id)?.hits).toBe(0);
  });
});

describe('editing and deleting', () => {
  it('updates where a redirect leads', async () => {
    const from = oldPath();
    const r = await addRedirect(from, '/blog/first');
    await visit(from);
    const res = await admin.put(`${PATH}/${r.id}`, { fromPath: from, toPath: '/blog/second' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, fromPath: from, toPath: '/blog/second', hits: 1 });
    expect((await visit(from)).headers.get('location')).toBe('/blog/second');
  });

  it('moves a redirect to another old address: the former one answers 404, the new one redirects from zero hits', async () => {
    const from = oldPath();
    const to = oldPath();
    const r = await addRedirect(from, '/blog/target');
    await visit(from);
    const res = await admin.put(`${PATH}/${r.id}`, { fromPath: to, toPath: '/blog/target' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fromPath: to, hits: 0, lastHitAt: null });
    expect((await visit(from)).status).toBe(404);
    expect((await visit(to)).status).toBe(301);
  });

  it('deletes a redirect: its old path answers 404 again, and a second delete 404', async () => {
    const from = oldPath();
    const r = await addRedirect(from, '/blog/gone');
    expect((await visit(from)).status).toBe(301);
    const res = await admin.delete(`${PATH}/${r.id}`);
    expect(res.status).toBe(200);
    expect(rowById(r.id)).toBeUndefined();
    expect((await visit(from)).status).toBe(404);
    expect((await admin.delete(`${PATH}/${r.id}`)).status).toBe(404);
  });

  it('answers 404 for PUT and DELETE of an unknown or malformed id, writing nothing', async () => {
    const from = oldPath();
    for (const id of ['987654', 'abc', '0']) {
      expect((await admin.put(`${PATH}/${id}`, { fromPath: from, toPath: '/blog' })).status).toBe(404);
      expect((await admin.delete(`${PATH}/${id}`)).status).toBe(404);
    }
    expect(rowByFrom(from)).toBeUndefined();
  });
});

describe('validation', () => {
  it.each([
    ['the home page', { fromPath: '/' }, 'fromPath', 'Old address cannot be the home page'],
    ['the old site’s home page', { fromPath: 'https://old.example.com/' }, 'fromPath', 'Old address cannot be the home page'],
    ['a path under /admin', { fromPath: '/admin/x' }, 'fromPath', 'Old address cannot be under /admin, /api, /_astro or /uploads'],
    ['a path under /api', { fromPath: '/API/login' }, 'fromPath', 'Old address cannot be under /admin, /api, /_astro or /uploads'],
    ['a path under /uploads', { fromPath: '/uploads/a.jpg' }, 'fromPath', 'Old address cannot be under /admin, /api, /_astro or /uploads'],
    ['an old address without a leading /', { fromPath: 'old-post' }, 'fromPath', 'Old address must be a path starting with / or a full http(s) address of the old site'],
    ['an empty old address', { fromPath: '' }, 'fromPath', 'Old address is required'],
    ['a 501-character old address', { fromPath: `/${'a'.repeat(500)}` }, 'fromPath', 'Old address must be at most 500 characters'],
    ['a protocol-relative new address', { toPath: '//evil.com' }, 'toPath', 'New address must be a path of this site starting with / or a full http(s) address'],
    ['a new address that browsers read as another host', { toPath: '/\\evil.com' }, 'toPath', 'New address must be a path of this site starting with / or a full http(s) address'],
    ['a javascript: new address', { toPath: 'javascript:alert(1)' }, 'toPath', 'New address must be a path of this site starting with / or a full http(s) address'],
    ['an empty new address', { toPath: '' }, 'toPath', 'New address is required'],
    ['a 501-character new address', { toPath: `/${'b'.repeat(500)}` }, 'toPath', 'New address must be at most 500 characters'],
    ['the same address twice', { fromPath: '/same-place', toPath: '/same-place' }, 'toPath', 'New address must differ from the old address'],
    ['the same address in another case and with a slash', { fromPath: '/same-place', toPath: '/Same-Place/' }, 'toPath', 'New address must differ from the old address'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_label, over, field, message) => {
    const issues = await expectInvalid(() => admin.post(PATH, { fromPath: oldPath(), toPath: '/blog/somewhere', ...over }), countRows);
    expect(issues).toContainEqual({ path: [field], message });
  });

  it('refuses a body without either address with 400 naming both', async () => {
    const issues = await expectInvalid(() => admin.post(PATH, {}), countRows);
    expect(issues).toEqual([
      { path: ['fromPath'], message: 'Old address is required' },
      { path: ['toPath'], message: 'New address is required' },
    ]);
  });

  it('PUT validates like POST and leaves the redirect unchanged', async () => {
    const from = oldPath();
    const r = await addRedirect(from, '/blog/kept');
    const res = await admin.put(`${PATH}/${r.id}`, { fromPath: from, toPath: '//evil.com' });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string[] }) => i.path)).toContainEqual(['toPath']);
    expect(rowById(r.id)).toMatchObject({ fromPath: from, toPath: '/blog/kept' });
  });

  it('answers 409 for a second redirect from the same address (in any case, with a slash), naming the field', async () => {
    const from = oldPath();
    await addRedirect(from, '/blog/one');
    const before = countRows();
    const res = await admin.post(PATH, { fromPath: `${from.toUpperCase()}/`, toPath: '/blog/two' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: `A redirect from ${from} already exists`, issues: [{ path: ['fromPath'], message: `A redirect from ${from} already exists` }] });
    expect(countRows()).toBe(before);
    expect(rowByFrom(from)?.toPath).toBe('/blog/one');
  });

  it('answers 409 when an edit moves a redirect onto an address another one has', async () => {
    const taken = oldPath();
    await addRedirect(taken, '/blog/one');
    const other = await addRedirect(oldPath(), '/blog/two');
    const res = await admin.put(`${PATH}/${other.id}`, { fromPath: taken, toPath: '/blog/two' });
    expect(res.status).toBe(409);
    expect(rowById(other.id)?.fromPath).toBe(other.fromPath);
    // Saving a redirect with its own address unchanged is no clash.
    expect((await admin.put(`${PATH}/${other.id}`, { fromPath: other.fromPath, toPath: '/blog/three' })).status).toBe(200);
  });
});

describe('guards', () => {
  it.each(refusedCallers(() => ({ server, user }), {}, {}))('answers $status to $who on GET, POST, PUT and DELETE and changes nothing', async ({ as, status }) => {
    const from = oldPath();
    const r = await addRedirect(from, '/blog/guarded');
    const caller = as();
    expect((await caller.get(PATH)).status).toBe(status);
    const created = oldPath();
    await expectWritesRefused(caller, status, PATH, r.id, { create: { fromPath: created, toPath: '/blog/x' }, update: { fromPath: from, toPath: '/blog/changed' } });
    expect(rowByFrom(created)).toBeUndefined();
    expect(rowById(r.id)).toMatchObject({ fromPath: from, toPath: '/blog/guarded' });
  });
});
