import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '#db/schema/auth.ts';
import { Client, clientAs, createUser, serverForFile } from '#tests/support/factories.ts';
import type { TestServer } from '#tests/support/server.ts';

let server: TestServer;
serverForFile((s) => (server = s));

describe('registration', () => {
  it('creates an unapproved, non-admin account, answers needsApproval and does not log in', async () => {
    const c = new Client(server);
    const res = await c.post('/api/register', { username: 'Newcomer', email: 'newcomer@example.com', firstName: 'New', lastName: '', password: 'secret1x' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'Newcomer', firstName: 'New', isAdmin: false, needsApproval: true });
    expect(res.body).not.toHaveProperty('email');
    expect(res.body).not.toHaveProperty('password');
    expect(res.headers.getSetCookie()).toEqual([]);
    const row = server.db.select().from(users).where(eq(users.username, 'newcomer')).get();
    expect(row).toMatchObject({ isApproved: false, isAdmin: false, lastName: null });
  });

  it('accepts a registration without an e-mail and never shows the placeholder', async () => {
    const admin = await clientAs(server, 'admin');
    const res = await new Client(server).post('/api/register', { username: 'noemail', email: '', password: 'secret1x' });
    expect(res.status).toBe(201);
    const list = await admin.get('/api/admin/users');
    expect(list.body.find((u: { username: string }) => u.username === 'noemail').email).toBeNull();
  });

  it.each([
    [{ username: 'ab', password: 'secret1x' }, 'username', 'Username must be at least 3 characters'],
    [{ username: 'valid', email: 'not-an-email', password: 'secret1x' }, 'email', 'Valid email is required'],
    [{ username: 'valid2', password: '12345' }, 'password', 'Password must be at least 6 characters'],
  ])('refuses %j with the spec message', async (body, field, message) => {
    const res = await new Client(server).post('/api/register', body);
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: [field], message });
  });

  it('refuses a taken username or e-mail with 409', async () => {
    await createUser(server, { username: 'taken', email: 'taken@example.com' });
    const byName = await new Client(server).post('/api/register', { username: 'TAKEN', password: 'secret1x' });
    expect(byName.status).toBe(409);
    const byEmail = await new Client(server).post('/api/register', { username: 'other', email: 'taken@example.com', password: 'secret1x' });
    expect(byEmail.status).toBe(409);
  });
});

describe('login and approval', () => {
  it('refuses an unapproved account with 403, then lets it in once an admin approves it', async () => {
    const visitor = new Client(server);
    await visitor.post('/api/register', { username: 'waiting', password: 'secret1x' });
    const refused = await visitor.post('/api/login', { username: 'waiting', password: 'secret1x' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/approval/i);
    expect(refused.headers.getSetCookie()).toEqual([]);

    const admin = await clientAs(server, 'admin');
    const id = server.db.select().from(users).where(eq(users.username, 'waiting')).get()!.id;
    const approved = await admin.patch(`/api/admin/users/${id}`, { isApproved: true });
    expect(approved.status).toBe(200);
    expect(approved.body.isApproved).toBe(true);

    const ok = await visitor.post('/api/login', { username: 'waiting', password: 'secret1x' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id, username: 'waiting', firstName: null, isAdmin: false, twoFactorEnabled: false, mustSetUpTwoFactor: false });
    const cookie = ok.headers.getSetCookie()[0];
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await visitor.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id, username: 'waiting', firstName: null, isAdmin: false, twoFactorEnabled: false, mustSetUpTwoFactor: false });
  });

  it('answers 401 to a wrong password and to an unknown user, without saying which', async () => {
    const u = await createUser(server);
    const wrong = await new Client(server).post('/api/login', { username: u.username, password: 'nope-nope' });
    const unknown = await new Client(server).post('/api/login', { username: 'ghost-user', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('requires username and password with the spec messages', async () => {
    const res = await new Client(server).post('/api/login', { username: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: ['username'], message: 'Username is required' },
      { path: ['password'], message: 'Password is required' },
    ]);
  });

  it('revoking approval ends the sessions the user already has', async () => {
    const user = await clientAs(server, 'user');
    expect((await user.get('/api/user')).status).toBe(200);
    const admin = await clientAs(server, 'admin');
    expect((await admin.patch(`/api/admin/users/${user.user.id}`, { isApproved: false })).status).toBe(200);
    expect((await user.get('/api/user')).status).toBe(401);
    expect(server.db.select().from(sessions).where(eq(sessions.userId, user.user.id)).all()).toEqual([]);
  });
});

describe('session calls', () => {
  it('GET /api/user is 401 without a session', async () => {
    const res = await new Client(server).get('/api/user');
    expect(res.status).toBe(401);
  });

  it('logout ends the session', async () => {
    const c = await clientAs(server, 'user');
    const out = await c.post('/api/logout');
    expect(out.status).toBe(200);
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('GET /api/login (a browser navigation) redirects to /auth', async () => {
    const res = await new Client(server).get('/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth');
  });
});
