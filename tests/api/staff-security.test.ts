// Staff security: two-factor sign-in (TOTP, backup codes, replay and brute-force refusal), the
// admin requirement for it, an account's sessions, the audit log of admin writes, the shell's
// reset-2fa, and the e-mail a sign-in from a new browser sends.
import { spawnSync } from 'node:child_process';
import { desc, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '#db/schema/audit.ts';
import { loginThrottles, sessions, twoFactors, users } from '#db/schema/auth.ts';
import { ROOT } from '#scripts/lib/paths.ts';
import { Client, clientAs, createPost, createSubscriber, createUser, serverWithClients, unique, type SessionClient } from '#tests/support/factories.ts';
import { startServer, type TestServer } from '#tests/support/server.ts';

let server: TestServer;
let admin: SessionClient;
let user: SessionClient;
/** The site's contact e-mail (the published site document's). */
const CONTACT_EMAIL = 'the-owner@example.com';
serverWithClients((s) => ({ server, admin, user } = s), { CONTACT_EMAIL });

const SECRET = 'test-secret-test-secret-test-secret-0123456789';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Every TOTP secret and backup code handed out in this file (none may reach the audit log). */
const secretsSeen: string[] = [];
/** Every session token there has been (ended ones too): none may reach the audit log either. */
const tokensSeen = new Set<string>();
function rememberTokens() {
  for (const r of server.db.select({ token: sessions.token }).from(sessions).all()) tokensSeen.add(r.token);
}

const userRow = (id: string) => server.db.select().from(users).where(eq(users.id, id)).get();
const twoFactorRow = (id: string) => server.db.select().from(twoFactors).where(eq(twoFactors.userId, id)).get();
const sessionsOf = (id: string) => server.db.select().from(sessions).where(eq(sessions.userId, id)).all();
const auditRows = () => server.db.select().from(auditLog).orderBy(auditLog.id).all();
const lastAuditId = () => server.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).get()?.id ?? 0;
const auditSince = (id: number) => auditRows().filter((r) => r.id > id);
/** The code of the next 30-second step: accepted (one step either side) and newer than the one just used. */
const nextCode = (totp: OTPAuth.TOTP) => totp.generate({ timestamp: Date.now() + 30_000 });

/** A well-formed code that no step around now gives. */
const wrongCode = (totp: OTPAuth.TOTP) => ['123456', '234567', '345678'].find((c) => ![-1, 0, 1, 2].some((k) => totp.generate({ timestamp: Date.now() + k * 30_000 }) === c))!;

/** Turns two-factor on for a signed-in client (enable, then confirm with a current code). */
async function enableTwoFactor(c: Client, password: string) {
  const enabled = await c.post('/api/auth/two-factor/enable', { password });
  expect(enabled.status, enabled.text).toBe(200);
  const totp = OTPAuth.URI.parse(enabled.body.totpURI as string) as OTPAuth.TOTP;
  const backupCodes = enabled.body.backupCodes as string[];
  secretsSeen.push(totp.secret.base32, ...backupCodes);
  const confirmed = await c.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { totp, backupCodes };
}

/** A fresh user with two-factor on; `signedIn` is the client that set it up. */
async function twoFactorUser(opts: { isAdmin?: boolean; email?: string } = {}) {
  const u = await createUser(server, opts);
  const signedIn = await new Client(server).login(u.username, u.password);
  return { ...u, signedIn, ...(await enableTwoFactor(signedIn, u.password)) };
}

/** The password step of a sign-in for an account with two-factor on: a client holding the challenge cookie. */
async function passwordStep(u: { username: string; password: string }, headers: Record<string, string> = {}) {
  const c = new Client(server);
  const res = await c.request('POST', '/api/login', { username: u.username, password: u.password }, headers);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ twoFactorRequired: true });
  expect((await c.get('/api/user')).status).toBe(401);
  return c;
}

describe('two-factor sign-in', () => {
  it('is set up with the password and a code, then a sign-in needs a right code and gets no token in its answer', async () => {
    const u = await createUser(server, { isAdmin: true });
    const c = await new Client(server).login(u.username, u.password);
    const since = lastAuditId();
    const enabled = await c.post('/api/auth/two-factor/enable', { password: u.password });
    expect(enabled.status).toBe(200);
    expect(auditSince(since)).toMatchObject([{ action: 'account.two-factor.set-up', actorId: u.id, targetId: u.id }]);
    expect(enabled.body.totpURI).toMatch(/^otpauth:\/\/totp\//);
    expect(enabled.body.backupCodes).toHaveLength(10);
    expect(new Set(enabled.body.backupCodes).size).toBe(10);
    const totp = OTPAuth.URI.parse(enabled.body.totpURI as string) as OTPAuth.TOTP;
    secretsSeen.push(totp.secret.base32, ...(enabled.body.backupCodes as string[]));
    expect([totp.period, totp.digits]).toEqual([30, 6]);
    // Not on until a code confirms it.
    expect((await c.get('/api/user')).body).toMatchObject({ id: u.id, twoFactorEnabled: false });
    expect(userRow(u.id)?.twoFactorEnabled).toBe(false);
    const confirmed = await c.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect(confirmed.status).toBe(200);
    expect(server.db.$client.prepare('SELECT two_factor_enabled FROM users WHERE id = ?').get(u.id)).toEqual({ two_factor_enabled: 1 });
    // Started, then on: the log tells an abandoned set-up from a second factor in force.
    expect(auditSince(since)).toMatchObject([
      { action: 'account.two-factor.set-up', actorId: u.id, targetId: u.id },
      { action: 'account.two-factor.turn-on', actorId: u.id, targetId: u.id },
    ]);
    expect((await c.get('/api/user')).body).toMatchObject({ id: u.id, twoFactorEnabled: true });
    expect((await c.post('/api/logout')).status).toBe(200);
    expect((await c.get('/api/user')).status).toBe(401);
    const next = await passwordStep(u);
    const wrong = await next.post('/api/auth/two-factor/verify-totp', { code: wrongCode(totp) });
    expect(wrong.status).toBe(401);
    expect((await next.get('/api/user')).status).toBe(401);
    const right = await next.post('/api/auth/two-factor/verify-totp', { code: nextCode(totp) });
    expect(right.status, right.text).toBe(200);
    expect(right.body).not.toHaveProperty('token');
    for (const s of sessionsOf(u.id)) expect(right.text).not.toContain(s.token);
    expect((await next.get('/api/user')).body).toMatchObject({ id: u.id, twoFactorEnabled: true });
  });

  it('refuses a code that already completed a sign-in (replay), on both second-step routes', async () => {
    const u = await twoFactorUser();
    const code = nextCode(u.totp);
    const first = await passwordStep(u);
    expect((await first.post('/api/login/code', { code })).status).toBe(200);
    expect((await first.get('/api/user')).status).toBe(200);
    const again = await passwordStep(u);
    expect((await again.post('/api/auth/two-factor/verify-totp', { code })).status).toBe(401);
    expect((await again.post('/api/login/code', { code })).status).toBe(401);
    expect((await again.get('/api/user')).status).toBe(401);
  });

  it('takes a backup code once', async () => {
    const u = await twoFactorUser();
    const [code] = u.backupCodes;
    const first = await passwordStep(u);
    const res = await first.post('/api/auth/two-factor/verify-backup-code', { code });
    expect(res.status, res.text).toBe(200);
    expect(res.body).not.toHaveProperty('token');
    expect((await first.get('/api/user')).body).toMatchObject({ id: u.id });
    const again = await passwordStep(u);
    expect((await again.post('/api/auth/two-factor/verify-backup-code', { code })).status).toBe(401);
    expect((await again.post('/api/login/code', { code, backup: true })).status).toBe(401);
    expect((await again.get('/api/user')).status).toBe(401);
    // Another of the codes still works, through our own route too.
    expect((await again.post('/api/login/code', { code: u.backupCodes[1], backup: true })).status).toBe(200);
    expect((await again.get('/api/user')).status).toBe(200);
  });

  it('makes the account wait after five wrong codes: even the right one is refused with 429', async () => {
    const u = await twoFactorUser();
    const right = nextCode(u.totp);
    const wrong = wrongCode(u.totp);
    const c = await passwordStep(u);
    for (let i = 0; i < 5; i++) expect((await c.post('/api/auth/two-factor/verify-totp', { code: wrong })).status).toBe(401);
    expect((await c.post('/api/auth/two-factor/verify-totp', { code: right })).status).toBe(429);
    expect((await c.get('/api/user')).status).toBe(401);
    // The wait is the account's, not the challenge's: a new sign-in is refused too.
    const fresh = await passwordStep(u);
    const blocked = await fresh.post('/api/login/code', { code: wrong });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fresh.get('/api/user')).status).toBe(401);
  });

  it('is turned off only with the password and a current code', async () => {
    const u = await twoFactorUser();
    expect((await u.signedIn.post('/api/auth/two-factor/disable', { password: u.password })).status).toBe(400);
    expect(userRow(u.id)?.twoFactorEnabled).toBe(true);
    const off = await u.signedIn.post('/api/auth/two-factor/disable', { password: u.password, code: nextCode(u.totp) });
    expect(off.status, off.text).toBe(200);
    expect(userRow(u.id)?.twoFactorEnabled).toBe(false);
    expect(twoFactorRow(u.id)).toBeUndefined();
    expect((await new Client(server).post('/api/login', { username: u.username, password: u.password })).body).toMatchObject({ id: u.id, twoFactorEnabled: false });
  });

  it('does not use up a code that came without the right password', async () => {
    const u = await twoFactorUser();
    const code = nextCode(u.totp);
    expect((await u.signedIn.post('/api/auth/two-factor/disable', { code })).status).toBe(400);
    expect((await u.signedIn.post('/api/auth/two-factor/disable', { password: 'not-the-password', code })).status).toBe(400);
    expect(userRow(u.id)?.twoFactorEnabled).toBe(true);
    // The password typo corrected, the same code (still on the app's screen) turns it off.
    const off = await u.signedIn.post('/api/auth/two-factor/disable', { password: u.password, code });
    expect(off.status, off.text).toBe(200);
    expect(userRow(u.id)?.twoFactorEnabled).toBe(false);
  });
});

describe('what the second factor guards', () => {
  it('turning it on ends the sessions signed in without a code, but the one that turned it on', async () => {
    const u = await createUser(server, { isAdmin: true });
    const before = await new Client(server).login(u.username, u.password);
    const setter = await new Client(server).login(u.username, u.password);
    expect((await before.get('/api/user')).status).toBe(200);
    await enableTwoFactor(setter, u.password);
    expect((await before.get('/api/user')).status).toBe(401);
    expect((await before.get('/api/admin/users')).status).toBe(401);
    expect((await setter.get('/api/user')).body).toMatchObject({ id: u.id, twoFactorEnabled: true });
    expect(sessionsOf(u.id)).toHaveLength(1);
  });

  it('adding a passkey takes the password, and a current code when two-factor is on, for that session only', async () => {
    const u = await createUser(server);
    const c = await new Client(server).login(u.username, u.password);
    const refused = await c.get('/api/auth/passkey/generate-register-options');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Enter your password (and a code from your app when two-factor sign-in is on) to add a passkey.');
    expect((await c.post('/api/auth/passkey/verify-registration', { response: {} })).status).toBe(403);
    const wrong = await c.post('/api/account/passkey-confirm', { password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: ['password'], message: 'Your password is not right' }]);
    expect((await c.post('/api/account/passkey-confirm', { password: u.password })).status).toBe(204);
    const options = await c.get('/api/auth/passkey/generate-register-options');
    expect(options.status, options.text).toBe(200);
    expect(options.body.challenge).toEqual(expect.any(String));
    // A registration the plugin cannot verify (here, no credential at all) is bad input, not a server error.
    const malformed = await c.post('/api/auth/passkey/verify-registration', { response: {} });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('This passkey could not be added. Please try again.');
    // Another session of the same account has confirmed nothing.
    expect((await (await new Client(server).login(u.username, u.password)).get('/api/auth/passkey/generate-register-options')).status).toBe(403);

    const t = await twoFactorUser();
    const noCode = await t.signedIn.post('/api/account/passkey-confirm', { password: t.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.issues).toEqual([{ path: ['code'], message: 'Enter a current code from your authenticator app.' }]);
    expect((await t.signedIn.get('/api/auth/passkey/generate-register-options')).status).toBe(403);
    expect((await t.signedIn.post('/api/account/passkey-confirm', { password: t.password, code: nextCode(t.totp) })).status).toBe(204);
    expect((await t.signedIn.get('/api/auth/passkey/generate-register-options')).status).toBe(200);
  });

  it('a session signed in over a day ago adds a passkey once confirmed: the password and code are the fresh proof', async () => {
    const t = await twoFactorUser();
    server.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(sessions.userId, t.id))
      .run();
    expect((await t.signedIn.get('/api/auth/passkey/generate-register-options')).status).toBe(403);
    expect((await t.signedIn.post('/api/account/passkey-confirm', { password: t.password, code: nextCode(t.totp) })).status).toBe(204);
    const options = await t.signedIn.get('/api/auth/passkey/generate-register-options');
    expect(options.status, options.text).toBe(200);
    expect(options.body.challenge).toEqual(expect.any(String));
    expect((await t.signedIn.post('/api/auth/passkey/verify-registration', { response: {} })).body.message).toBe('This passkey could not be added. Please try again.');
  });

  it('its secret is not handed out again, and new backup codes take a current code as well as the password', async () => {
    const u = await twoFactorUser();
    expect((await u.signedIn.post('/api/auth/two-factor/get-totp-uri', { password: u.password })).status).toBe(404);
    const withoutCode = await u.signedIn.post('/api/auth/two-factor/generate-backup-codes', { password: u.password });
    expect(withoutCode.status).toBe(400);
    expect(withoutCode.body.message).toBe('Enter a current code from your authenticator app.');
    const fresh = await u.signedIn.post('/api/auth/two-factor/generate-backup-codes', { password: u.password, code: nextCode(u.totp) });
    expect(fresh.status, fresh.text).toBe(200);
    const codes = fresh.body.backupCodes as string[];
    secretsSeen.push(...codes);
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => u.backupCodes.includes(c))).toBe(false);
  });
});

describe('REQUIRE_2FA_FOR_ADMINS', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startServer({ REQUIRE_2FA_FOR_ADMINS: 'true' });
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('keeps an admin without two-factor out of admin routes until it is set up', async () => {
    const staff = await clientAs(strict, 'admin');
    const member = await clientAs(strict, 'user');
    expect((await member.get('/api/user')).body).toMatchObject({ mustSetUpTwoFactor: false });
    expect((await staff.get('/api/user')).body).toMatchObject({ isAdmin: true, twoFactorEnabled: false, mustSetUpTwoFactor: true });
    expect((await staff.get('/api/admin/users')).status).toBe(403);
    const fromPath = `/old/${unique('strict-')}`;
    expect((await staff.post('/api/admin/redirects', { fromPath, toPath: '/blog' })).status).toBe(403);
    expect(strict.db.$client.prepare('SELECT count(*) AS n FROM redirects WHERE from_path = ?').get(fromPath)).toEqual({ n: 0 });
    expect((await staff.put('/api/admin/settings', { notifyComments: false })).status).toBe(403);

    // What an admin does to their account while two-factor is still to be set up is logged too.
    const logged = () =>
      strict.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.actorId, staff.user.id))
        .all()
        .map((r) => r.action);
    const newPassword = 'staff-changed-it-2026';
    expect((await staff.post('/api/account/password', { currentPassword: staff.user.password, newPassword })).status).toBe(204);
    const enabled = await staff.post('/api/auth/two-factor/enable', { password: newPassword });
    expect(enabled.status).toBe(200);
    expect(logged()).toEqual(['account.password.change', 'account.two-factor.set-up']);
    const totp = OTPAuth.URI.parse(enabled.body.totpURI as string) as OTPAuth.TOTP;
    const before = staff.cookie;
    expect((await staff.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    expect(logged()).toEqual(['account.password.change', 'account.two-factor.set-up', 'account.two-factor.turn-on']);
    expect(staff.cookie).not.toBe(before);
    expect((await staff.get('/api/user')).body).toMatchObject({ twoFactorEnabled: true, mustSetUpTwoFactor: false });
    expect((await staff.get('/api/admin/users')).status).toBe(200);
    expect((await staff.post('/api/admin/redirects', { fromPath, toPath: '/blog' })).status).toBe(201);
  });

  it('shows an admin without two-factor no drafts either (the admin’s post list is refused like the rest)', async () => {
    const staff = await clientAs(strict, 'admin');
    const draft = createPost(strict, staff.user.id, { isPublished: false, publishedAt: null });
    expect((await staff.get('/api/user')).body).toMatchObject({ mustSetUpTwoFactor: true });
    expect.soft((await staff.get(`/api/blog-posts/${draft.id}`)).status).toBe(404);
    for (const path of ['/api/blog-posts', '/api/blog-posts?page=1&pageSize=20&status=draft']) {
      const res = await staff.get(path);
      expect.soft(res.text, path).not.toContain(draft.slug);
    }
  });
});

describe('signed-in sessions', () => {
  it('lists the account’s sessions without tokens and ends one, all others, never another account’s', async () => {
    const u = await createUser(server, { isAdmin: true });
    const [a, b] = [await new Client(server).login(u.username, u.password), await new Client(server).login(u.username, u.password)];
    rememberTokens();
    const list = await a.get('/api/account/sessions');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.text).not.toMatch(/token/i);
    for (const s of sessionsOf(u.id)) expect(list.text).not.toContain(s.token);
    const bId = list.body.find((s: { current: boolean }) => !s.current).id as string;
    expect((await b.get('/api/admin/users')).status).toBe(200);
    expect((await a.delete(`/api/account/sessions/${bId}`)).status).toBe(204);
    expect((await b.get('/api/admin/users')).status).toBe(401);
    expect((await a.get('/api/admin/users')).status).toBe(200);

    const others = [await new Client(server).login(u.username, u.password), await new Client(server).login(u.username, u.password)];
    rememberTokens();
    const ended = await a.delete('/api/account/sessions/others');
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 2 });
    for (const o of others) expect((await o.get('/api/user')).status).toBe(401);
    expect((await a.get('/api/user')).status).toBe(200);
    expect(sessionsOf(u.id)).toHaveLength(1);
    const someoneElse = sessionsOf(user.user.id)[0];
    expect((await a.delete(`/api/account/sessions/${someoneElse.id}`)).status).toBe(404);
    expect((await user.get('/api/user')).status).toBe(200);
  });

  it('gives no session token to script through better-auth’s own routes either', async () => {
    const u = await createUser(server);
    const [a] = [await new Client(server).login(u.username, u.password), await new Client(server).login(u.username, u.password)];
    const raw = await a.get('/api/auth/list-sessions');
    expect([200, 404]).toContain(raw.status);
    expect(sessionsOf(u.id)).toHaveLength(2);
    for (const s of sessionsOf(u.id)) expect(raw.text).not.toContain(s.token);
  });
});

describe('trusted devices', () => {
  /** Signs `u` in on a new client with a code, trusting that browser for 30 days; then signs out (the trust stays). */
  async function trustedBrowser(u: { username: string; password: string; totp: OTPAuth.TOTP }) {
    const c = new Client(server);
    expect((await c.post('/api/login', { username: u.username, password: u.password })).body).toEqual({ twoFactorRequired: true });
    expect((await c.post('/api/auth/two-factor/verify-totp', { code: nextCode(u.totp), trustDevice: true })).status).toBe(200);
    expect((await c.post('/api/logout')).status).toBe(200);
    expect((await c.post('/api/login', { username: u.username, password: u.password })).body).not.toHaveProperty('twoFactorRequired');
    expect((await c.post('/api/logout')).status).toBe(200);
    return c;
  }

  it('are forgotten when the account ends its other sessions, or changes its password: the code is asked for again', async () => {
    const ended = await twoFactorUser();
    const lost = await trustedBrowser(ended);
    expect((await ended.signedIn.delete('/api/account/sessions/others')).status).toBe(200);
    expect((await lost.post('/api/login', { username: ended.username, password: ended.password })).body).toEqual({ twoFactorRequired: true });

    const changed = await twoFactorUser();
    const stolen = await trustedBrowser(changed);
    const newPassword = 'a-new-password-9';
    expect((await changed.signedIn.post('/api/account/password', { currentPassword: changed.password, newPassword })).status).toBe(204);
    expect((await stolen.post('/api/login', { username: changed.username, password: newPassword })).body).toEqual({ twoFactorRequired: true });
  });

  it('are forgotten when an admin revokes the account’s approval: approved again, it gives a code again', async () => {
    const u = await twoFactorUser();
    const trusted = await trustedBrowser(u);
    expect((await admin.patch(`/api/admin/users/${u.id}`, { isApproved: false })).status).toBe(200);
    expect((await u.signedIn.get('/api/user')).status).toBe(401);
    expect((await admin.patch(`/api/admin/users/${u.id}`, { isApproved: true })).status).toBe(200);
    expect((await trusted.post('/api/login', { username: u.username, password: u.password })).body).toEqual({ twoFactorRequired: true });
  });
});

describe('the audit log', () => {
  /** Runs one admin write and answers the audit rows it left. */
  async function audited(write: () => ReturnType<Client['get']>, status: number) {
    const since = lastAuditId();
    const res = await write();
    expect(res.status, res.text).toBe(status);
    return { res, rows: auditSince(since) };
  }
  const one = (rows: (typeof auditLog.$inferSelect)[], action: string | RegExp, targetId: string) => {
    expect(rows).toHaveLength(1);
    expect(rows[0].action).toMatch(action);
    expect(rows[0]).toMatchObject({ actorId: admin.user.id, actorName: admin.user.username, targetId });
  };

  it('records each admin write once, with who and what, and nothing for a refused one', async () => {
    const postBody = { title: 'Audited post', slug: unique('audited-'), excerpt: 'card 4242424242424242', content: `<p>password ${admin.user.password}</p>`, isPublished: false };
    const created = await audited(() => admin.post('/api/blog-posts', postBody), 201);
    const postId = String(created.res.body.id);
    one(created.rows, 'blog-posts.create', postId);
    one((await audited(() => admin.put(`/api/blog-posts/${postId}`, { ...postBody, title: 'Audited post, again' }), 200)).rows, 'blog-posts.update', postId);
    one((await audited(() => admin.delete(`/api/blog-posts/${postId}`), 200)).rows, 'blog-posts.delete', postId);

    const other = await createUser(server, { isApproved: false });
    one((await audited(() => admin.patch(`/api/admin/users/${other.id}`, { isApproved: true }), 200)).rows, 'users.update', other.id);
    one((await audited(() => admin.patch(`/api/admin/users/${other.id}`, { isAdmin: true }), 200)).rows, 'users.update', other.id);
    one((await audited(() => admin.delete(`/api/admin/users/${other.id}`), 200)).rows, 'users.delete', other.id);

    const sub = createSubscriber(server);
    one((await audited(() => admin.delete(`/api/newsletter/subscribers/${sub.id}`), 200)).rows, /subscribers\.delete$/, String(sub.id));
    one((await audited(() => admin.put('/api/admin/settings', { notifyComments: true }), 200)).rows, 'settings.update', '');
    const redirect = await audited(() => admin.post('/api/admin/redirects', { fromPath: `/old/${unique('audit-')}`, toPath: '/blog' }), 201);
    one(redirect.rows, 'redirects.create', String(redirect.res.body.id));
    const site = (await admin.get('/api/admin/site')).body.published;
    one((await audited(() => admin.put('/api/admin/site', site), 200)).rows, 'site.update', '');
    one((await audited(() => admin.post('/api/admin/site/publish'), 200)).rows, 'site.publish', '');

    // Refused writes leave nothing.
    expect((await audited(() => admin.post('/api/blog-posts', { title: '' }), 400)).rows).toEqual([]);
    expect((await audited(() => admin.patch(`/api/admin/users/${user.user.id}`, {}), 400)).rows).toEqual([]);
    expect((await audited(() => admin.delete('/api/admin/users/no-such-user'), 404)).rows).toEqual([]);
    expect((await audited(() => user.post('/api/admin/redirects', { fromPath: `/old/${unique('x-')}`, toPath: '/' }), 403)).rows).toEqual([]);
  });

  it('holds no password, token, TOTP secret or card number in any column', () => {
    const rows = server.db.$client.prepare('SELECT * FROM audit_log').all() as Record<string, string | number | null>[];
    expect(rows.length).toBeGreaterThan(10);
    rememberTokens();
    const tokens = [...tokensSeen];
    const encrypted = (server.db.$client.prepare('SELECT secret, backup_codes FROM two_factors').all() as { secret: string; backup_codes: string }[]).flatMap((r) => [r.secret, r.backup_codes]);
    expect(secretsSeen.length).toBeGreaterThan(10);
    expect(tokens.length).toBeGreaterThan(3);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = String(value ?? '');
        for (const secret of [admin.user.password, ...tokens, ...encrypted, ...secretsSeen]) expect(text, column).not.toContain(secret);
        expect(text.toLowerCase(), column).not.toContain('password');
        // ts is a 13-digit millisecond timestamp by design.
        if (column !== 'ts') expect(text, column).not.toMatch(/\b\d{13,19}\b/);
      }
    }
  });

  it('is read by admins only, newest first, filtered and exported as CSV', async () => {
    expect((await new Client(server).get('/api/admin/audit')).status).toBe(401);
    expect((await user.get('/api/admin/audit')).status).toBe(403);
    expect((await user.get('/api/admin/audit/export')).status).toBe(403);
    const page = await admin.get('/api/admin/audit?pageSize=100');
    expect(page.status).toBe(200);
    const ids = page.body.items.map((r: { id: number }) => r.id);
    expect(ids[0]).toBe(lastAuditId());
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(page.body.total).toBe(auditRows().length);

    const posts = await admin.get('/api/admin/audit?action=blog-posts');
    expect(posts.body.items.map((r: { action: string }) => r.action).sort()).toEqual(['blog-posts.create', 'blog-posts.delete', 'blog-posts.update']);
    const exact = await admin.get('/api/admin/audit?action=users.delete');
    expect(exact.body.items.map((r: { action: string }) => r.action)).toEqual(['users.delete']);
    const mine = await admin.get(`/api/admin/audit?actor=${encodeURIComponent(admin.user.username)}`);
    expect(mine.body.total).toBe(auditRows().filter((r) => r.actorId === admin.user.id).length);
    expect(mine.body.items.every((r: { actorId: string }) => r.actorId === admin.user.id)).toBe(true);

    const csv = await admin.get('/api/admin/audit/export');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('when,who,action,target,summary');
    expect(lines).toHaveLength(auditRows().length + 1);
    expect(lines[1]).toContain(auditRows().at(-1)!.action);
  });

  it('cannot be changed or deleted, through the API or in the database', async () => {
    const count = auditRows().length;
    const firstId = auditRows()[0].id;
    for (const path of ['/api/admin/audit', `/api/admin/audit/${firstId}`]) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await admin.request(method, path, method === 'DELETE' ? undefined : { summary: 'edited' });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    expect(auditRows()).toHaveLength(count);
    const sql = server.db.$client;
    expect(() => sql.prepare("UPDATE audit_log SET summary = 'edited' WHERE id = ?").run(firstId)).toThrow(/cannot be changed/);
    expect(() => sql.prepare('DELETE FROM audit_log').run()).toThrow(/kept two years/);
    expect(() => sql.prepare('DELETE FROM audit_log WHERE id = ?').run(firstId)).toThrow(/kept two years/);
    expect(auditRows()).toHaveLength(count);
    expect(auditRows().every((r) => !r.summary.includes('edited'))).toBe(true);
    // A row past the two years can go (the hourly prune).
    const old = sql.prepare("INSERT INTO audit_log (ts, actor_name, action) VALUES (?, 'old', 'old.row')").run(Date.now() - 800 * 86_400_000);
    expect(sql.prepare('DELETE FROM audit_log WHERE id = ?').run(old.lastInsertRowid).changes).toBe(1);
  });
});

describe('npm run admin -- reset-2fa', () => {
  it('turns two-factor off, ends the sessions, clears the wait wrong codes earned and writes the audit log as the shell', async () => {
    const u = await twoFactorUser();
    expect((await u.signedIn.get('/api/user')).status).toBe(200);
    // The owner tried a dozen codes from the lost phone's backup: the account waits an hour.
    server.db
      .insert(loginThrottles)
      .values({ username: u.username.toLowerCase(), failures: 12, lastFailureAt: new Date(), lockedUntil: new Date(Date.now() + 60 * 60_000) })
      .run();
    const env = { PATH: process.env.PATH, DATABASE_URL: server.dbFile, BETTER_AUTH_SECRET: SECRET, SITE_URL: server.url, LOG_LEVEL: 'warn' };
    const run = spawnSync(process.execPath, ['scripts/admin.ts', 'reset-2fa', u.username], { cwd: ROOT, env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(userRow(u.id)?.twoFactorEnabled).toBe(false);
    expect(twoFactorRow(u.id)).toBeUndefined();
    expect(sessionsOf(u.id)).toEqual([]);
    expect(server.db.select().from(loginThrottles).where(eq(loginThrottles.username, u.username.toLowerCase())).all()).toEqual([]);
    expect((await u.signedIn.get('/api/user')).status).toBe(401);
    const row = auditRows().at(-1)!;
    expect(row).toMatchObject({ action: 'users.reset-2fa', actorName: 'shell', actorId: null, targetId: u.id });
    // The password alone signs in again.
    expect((await new Client(server).post('/api/login', { username: u.username, password: u.password })).body).toMatchObject({ id: u.id, twoFactorEnabled: false });
  });
});

describe('sign-in alerts', () => {
  const alertsTo = (email: string) => server.db.$client.prepare(`SELECT text FROM outbox WHERE kind = 'sign-in-alert' AND "to" = ?`).all(email) as { text: string }[];
  const signIn = async (u: { username: string; password: string }, ua: string, c = new Client(server)) => {
    expect((await c.request('POST', '/api/login', { username: u.username, password: u.password }, { 'User-Agent': ua })).status).toBe(200);
    return c;
  };

  it('tells the holder of a sign-in from a new browser, with a signed link that ends that session', async () => {
    const email = `${unique('alerted')}@example.com`;
    const u = await createUser(server, { email });
    const chrome = await signIn(u, CHROME_MAC);
    expect(alertsTo(email)).toEqual([]);
    const firefox = await signIn(u, FIREFOX_WIN);
    const alerts = alertsTo(email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('Firefox on Windows');
    const link = /(\/account\/session-end\?s=([^&\s]+)&sig=([\w-]+))/.exec(alerts[0].text);
    expect(link).not.toBeNull();
    const [, path, s, sig] = link!;
    expect(sessionsOf(u.id).find((x) => x.id === decodeURIComponent(s))?.userAgent).toBe(FIREFOX_WIN);
    // The same browser again (it shows the cookie it was given): nothing to tell.
    const chromeAgain = await signIn(u, CHROME_MAC, chrome);
    expect(alertsTo(email)).toHaveLength(1);
    expect(chrome.cookie).toMatch(/site\.device=/);

    const page = await new Client(server).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form[^>]*action="\/api\/account\/session-end"/);
    const tampered = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    expect((await new Client(server).get(path.replace(sig, tampered))).status).toBe(403);
    expect((await new Client(server).post('/api/account/session-end', { s: decodeURIComponent(s), sig: tampered })).status).toBe(403);
    expect((await firefox.get('/api/user')).status).toBe(200);
    const ended = await new Client(server).post('/api/account/session-end', { s: decodeURIComponent(s), sig });
    expect(ended.status).toBe(200);
    expect((await firefox.get('/api/user')).status).toBe(401);
    expect((await chrome.get('/api/user')).status).toBe(200);
    expect((await chromeAgain.get('/api/user')).status).toBe(200);
  });

  it('tells of a browser that describes itself as a known one but does not show its device cookie', async () => {
    const email = `${unique('mimicked')}@example.com`;
    const u = await createUser(server, { email });
    const own = await signIn(u, CHROME_MAC);
    await signIn(u, CHROME_MAC);
    const alerts = alertsTo(email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('Chrome on macOS');
    // The cookie is kept as a hash only.
    const value = /site\.device=([^;]+)/.exec(own.cookie)?.[1];
    expect(value).toBeDefined();
    expect(JSON.stringify(server.db.$client.prepare('SELECT * FROM known_devices').all())).not.toContain(value);
  });

  it('reaches the owner whose account has no address of its own (the ADMIN_USERNAME admin) at the site’s contact e-mail', async () => {
    const u = await createUser(server, { isAdmin: true, email: `${unique('owner')}@no-email.invalid` });
    await signIn(u, CHROME_MAC);
    await signIn(u, FIREFOX_WIN);
    const alerts = alertsTo(CONTACT_EMAIL).filter((a) => a.text.includes('Firefox on Windows'));
    expect(alerts).toHaveLength(1);
    // Not an admin: nobody but the account's holder is told (and it has no address).
    const plain = await createUser(server, { email: `${unique('plain')}@no-email.invalid` });
    const before = alertsTo(CONTACT_EMAIL).length;
    await signIn(plain, CHROME_MAC);
    await signIn(plain, FIREFOX_WIN);
    expect(alertsTo(CONTACT_EMAIL)).toHaveLength(before);
  });

  it('go to the alert e-mail the holder chose in Account → Security; a bad address is refused and changes nothing', async () => {
    const u = await createUser(server, { isAdmin: true, email: `${unique('placeholder')}@no-email.invalid` });
    const own = await signIn(u, CHROME_MAC);
    const chosen = `${unique('alerts')}@example.com`;
    // Before a choice, an admin without an address of its own is alerted at the contact e-mail.
    expect((await own.get('/api/account/alert-email')).body).toEqual({ alertEmail: '', alertsGoTo: CONTACT_EMAIL });
    for (const bad of ['not an address', `${'a'.repeat(250)}@example.com`]) {
      const refused = await own.put('/api/account/alert-email', { alertEmail: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.issues[0].path).toEqual(['alertEmail']);
    }
    expect(userRow(u.id)!.alertEmail).toBeNull();
    expect((await new Client(server).put('/api/account/alert-email', { alertEmail: chosen })).status).toBe(401);
    const saved = await own.put('/api/account/alert-email', { alertEmail: chosen });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ alertEmail: chosen, alertsGoTo: chosen });
    expect(auditRows().at(-1)).toMatchObject({ action: 'account.alert-email.change', targetId: u.id });
    await signIn(u, FIREFOX_WIN);
    expect(alertsTo(chosen)).toHaveLength(1);
    expect(alertsTo(chosen)[0].text).toContain('Firefox on Windows');
    // Emptied: back to where alerts went before.
    expect((await own.put('/api/account/alert-email', { alertEmail: '' })).body).toEqual({ alertEmail: '', alertsGoTo: CONTACT_EMAIL });
  });

  it('also follows a sign-in completed by a code', async () => {
    const u = await twoFactorUser({ email: `${unique('coded')}@example.com` });
    const c = await passwordStep(u, { 'User-Agent': FIREFOX_WIN });
    const res = await c.request('POST', '/api/login/code', { code: nextCode(u.totp) }, { 'User-Agent': FIREFOX_WIN });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toMatch(/token/i);
    const alerts = alertsTo(userRow(u.id)!.email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('Firefox on Windows');
    // That browser is known from now on.
    expect(c.cookie).toMatch(/site\.device=/);
    expect((await c.post('/api/logout')).status).toBe(200);
    // A code is used once: the next sign-in comes with a code of a later step, as after 30 seconds.
    server.db.update(twoFactors).set({ lastTotpStep: null }).where(eq(twoFactors.userId, u.id)).run();
    expect((await c.request('POST', '/api/login', { username: u.username, password: u.password }, { 'User-Agent': FIREFOX_WIN })).body).toEqual({ twoFactorRequired: true });
    expect((await c.request('POST', '/api/login/code', { code: nextCode(u.totp) }, { 'User-Agent': FIREFOX_WIN })).status).toBe(200);
    expect(alertsTo(userRow(u.id)!.email)).toHaveLength(1);
  });
});
