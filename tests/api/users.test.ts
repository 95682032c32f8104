import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, users } from '#db/schema/auth.ts';
import { blogPosts } from '#db/schema/content.ts';
import { Client, clientAs, createPost, createUser, serverWithClients, type SessionClient } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
serverWithClients((s) => ({ server, admin, user } = s));

const userRow = (id: string) => server.db.select().from(users).where(eq(users.id, id)).get();
const passwordHashOf = (id: string) => server.db.select({ password: accounts.password }).from(accounts).where(eq(accounts.userId, id)).get()?.password;

describe('listing users', () => {
  it('answers 401 to an anonymous visitor and 403 to a non-admin', async () => {
    const anon = await new Client(server).get('/api/admin/users');
    expect(anon.status).toBe(401);
    expect(anon.text).not.toContain(admin.user.id);
    const asUser = await user.get('/api/admin/users');
    expect(asUser.status).toBe(403);
    expect(asUser.text).not.toContain(admin.user.id);
  });

  it('lists users with their flags for an admin', async () => {
    const pending = await createUser(server, { isApproved: false, email: 'pending-listed@example.com' });
    const res = await admin.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.find((u: { id: string }) => u.id === pending.id)).toMatchObject({
      id: pending.id,
      username: pending.username,
      email: 'pending-listed@example.com',
      isAdmin: false,
      isApproved: false,
    });
    expect(res.body.find((u: { id: string }) => u.id === admin.user.id)).toMatchObject({ isAdmin: true, isApproved: true });
  });

  it('never contains a password or a password hash', async () => {
    const someone = await createUser(server, { password: 'hunter2-secret' });
    const res = await admin.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/password/i);
    expect(res.text).not.toContain('hunter2-secret');
    const hash = passwordHashOf(someone.id)!;
    expect(hash).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);
    expect(res.text).not.toContain(hash);
    expect(res.text).not.toContain(hash.split(':')[1]);
    // No 'salt:key' hex hash of anyone at all.
    expect(res.text).not.toMatch(/[0-9a-f]{16,}:[0-9a-f]{32,}/i);
    for (const u of res.body) expect(Object.keys(u).join(',')).not.toMatch(/pass|hash|token|secret/i);
  });
});

describe('changing another user', () => {
  it('approves another user and makes them admin', async () => {
    const other = await createUser(server, { isApproved: false });
    const approved = await admin.patch(`/api/admin/users/${other.id}`, { isApproved: true });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: other.id, isApproved: true, isAdmin: false });
    expect(approved.text).not.toMatch(/password/i);
    const promoted = await admin.patch(`/api/admin/users/${other.id}`, { isAdmin: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: other.id, isApproved: true, isAdmin: true });
    expect(userRow(other.id)).toMatchObject({ isApproved: true, isAdmin: true });
  });

  it('demotes another admin', async () => {
    const other = await createUser(server, { isAdmin: true });
    const res = await admin.patch(`/api/admin/users/${other.id}`, { isAdmin: false });
    expect(res.status).toBe(200);
    expect(userRow(other.id)?.isAdmin).toBe(false);
  });

  it('a promoted user can then call admin routes with the session they already have', async () => {
    const promoted = await clientAs(server, 'user');
    expect((await promoted.get('/api/admin/users')).status).toBe(403);
    expect((await admin.patch(`/api/admin/users/${promoted.user.id}`, { isAdmin: true })).status).toBe(200);
    const res = await promoted.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.map((u: { id: string }) => u.id)).toContain(promoted.user.id);
    expect((await promoted.get('/api/user')).body).toMatchObject({ id: promoted.user.id, isAdmin: true });
  });

  it('a demoted admin loses admin access at once', async () => {
    const demoted = await clientAs(server, 'admin');
    expect((await demoted.get('/api/admin/users')).status).toBe(200);
    expect((await admin.patch(`/api/admin/users/${demoted.user.id}`, { isAdmin: false })).status).toBe(200);
    expect((await demoted.get('/api/admin/users')).status).toBe(403);
  });

  it.each([
    ['an empty body', {}],
    ['no body at all', ''],
    ['a string flag', { isAdmin: 'yes' }],
    ['only unknown fields', { username: 'renamed' }],
  ])('refuses %s with 400 and changes nothing', async (_label, body) => {
    const other = await createUser(server);
    const before = userRow(other.id);
    const res = await admin.patch(`/api/admin/users/${other.id}`, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(userRow(other.id)).toEqual(before);
  });

  it('answers 404 to PATCH and DELETE of an unknown user', async () => {
    expect((await admin.patch('/api/admin/users/no-such-user', { isApproved: true })).status).toBe(404);
    expect((await admin.delete('/api/admin/users/no-such-user')).status).toBe(404);
    expect((await admin.patch('/api/admin/users/00000000-0000-4000-8000-000000000000', { isAdmin: true })).status).toBe(404);
  });

  it('answers 401 to an anonymous visitor and 403 to a non-admin on PATCH and DELETE, changing nothing', async () => {
    const target = await createUser(server, { isApproved: false });
    const anon = new Client(server);
    expect((await anon.patch(`/api/admin/users/${target.id}`, { isApproved: true })).status).toBe(401);
    expect((await anon.delete(`/api/admin/users/${target.id}`)).status).toBe(401);
    expect((await user.patch(`/api/admin/users/${target.id}`, { isApproved: true })).status).toBe(403);
    expect((await user.patch(`/api/admin/users/${user.user.id}`, { isAdmin: true })).status).toBe(403);
    expect((await user.delete(`/api/admin/users/${target.id}`)).status).toBe(403);
    expect(userRow(target.id)).toMatchObject({ isApproved: false, isAdmin: false });
    expect(userRow(user.user.id)?.isAdmin).toBe(false);
  });
});

describe('an admin acting on themselves', () => {
  it('cannot change their own admin flag (403) and stays admin', async () => {
    const self = await clientAs(server, 'admin');
    const res = await self.patch(`/api/admin/users/${self.user.id}`, { isAdmin: false });
    expect(res.status).toBe(403);
    expect(userRow(self.user.id)?.isAdmin).toBe(true);
    expect((await self.get('/api/admin/users')).status).toBe(200);
  });

  it('cannot delete themselves (403) and still exists', async () => {
    const self = await clientAs(server, 'admin');
    const res = await self.delete(`/api/admin/users/${self.user.id}`);
    expect(res.status).toBe(403);
    expect(userRow(self.user.id)).toMatchObject({ isAdmin: true, isApproved: true });
    expect((await self.get('/api/user')).status).toBe(200);
  });
});

describe('deleting a user', () => {
  it('deletes another user, who can no longer log in or use their session', async () => {
    const victim = await clientAs(server, 'user');
    const res = await admin.delete(`/api/admin/users/${victim.user.id}`);
    expect(res.status).toBe(200);
    expect(userRow(victim.user.id)).toBeUndefined();
    expect((await victim.get('/api/user')).status).toBe(401);
    const login = await new Client(server).post('/api/login', { username: victim.user.username, password: victim.user.password });
    expect(login.status).toBe(401);
    const list = await admin.get('/api/admin/users');
    expect(list.body.map((u: { id: string }) => u.id)).not.toContain(victim.user.id);
  });

  it('keeps the posts of a deleted author, reassigned to the admin who deleted them', async () => {
    const author = await createUser(server, { isAdmin: true });
    const published = createPost(server, author.id);
    const draft = createPost(server, author.id, { isPublished: false, publishedAt: null });
    const res = await admin.delete(`/api/admin/users/${author.id}`);
    expect(res.status).toBe(200);
    const rows = [published.id, draft.id].map((id) => server.db.select().from(blogPosts).where(eq(blogPosts.id, id)).get());
    expect(rows.map((r) => r?.authorId)).toEqual([admin.user.id, admin.user.id]);
    expect((await new Client(server).get(`/api/blog-posts/slug/${published.slug}`)).status).toBe(200);
  });
});
