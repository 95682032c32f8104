// Operator-side account management (start-up bootstrap and the `npm run admin` CLI).
import { and, eq } from 'drizzle-orm';
import { accounts, sessions, twoFactors, users } from '#db/schema/auth.ts';
import { recordAudit } from '#server/security/audit.ts';
import { forgetTrustedDevices } from '#server/security/sessions.ts';
import { clearLoginFailures } from './login-throttle.ts';
import { placeholderEmail } from '#server/auth.ts';
import { getAuth, getDb } from '#server/context.ts';

function findByUsername(name: string) {
  return getDb().select().from(users).where(eq(users.username, name.toLowerCase())).get();
}

/** Creates an approved account (admin when asked); returns its id. Fails if the name is taken. */
export async function createAccount(opts: {
  username: string;
  password: string;
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  isAdmin?: boolean;
}): Promise<string> {
  if (findByUsername(opts.username)) throw new Error(`User "${opts.username}" already exists`);
  const ctx = await getAuth().$context;
  const user = await ctx.internalAdapter.createUser(
    {
      email: opts.email?.toLowerCase() ?? placeholderEmail(opts.username),
      name: [opts.firstName, opts.lastName].filter(Boolean).join(' ') || opts.username,
      username: opts.username.toLowerCase(),
      displayUsername: opts.username,
      firstName: opts.firstName ?? null,
      lastName: opts.lastName ?? null,
    },
    { method: 'admin' },
  );
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: await ctx.password.hash(opts.password) });
  getDb()
    .update(users)
    .set({ isApproved: true, isAdmin: Boolean(opts.isAdmin) })
    .where(eq(users.id, user.id))
    .run();
  return user.id;
}

/** The account's password login row, if it has one. */
function credentialOf(userId: string) {
  return getDb()
    .select()
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .get();
}

async function writePassword(userId: string, password: string): Promise<void> {
  const ctx = await getAuth().$context;
  const hash = await ctx.password.hash(password);
  if (credentialOf(userId)) await ctx.internalAdapter.updatePassword(userId, hash);
  else await ctx.internalAdapter.linkAccount({ userId, providerId: 'credential', accountId: userId, password: hash });
}

/**
 * Sets a new password for an existing account and ends every session it had (whoever knew the
 * old password is signed out). Answers how many sessions were ended.
 */
export async function setPassword(name: string, password: string): Promise<number> {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  await writePassword(user.id, password);
  return getDb().delete(sessions).where(eq(sessions.userId, user.id)).run().changes;
}

/**
 * For an owner locked out of two-factor (a lost phone, no backup codes): turns it off, forgets
 * the devices trusted for 30 days, ends every session, clears the wait its wrong codes earned,
 * and records it in the audit log. The account signs in with its password alone at once and sets
 * two-factor up again.
 */
export function resetTwoFactor(name: string): void {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  const db = getDb();
  db.transaction((tx) => {
    tx.delete(twoFactors).where(eq(twoFactors.userId, user.id)).run();
    tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, user.id)).run();
    forgetTrustedDevices(tx, user.id);
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run();
  });
  clearLoginFailures(user.username);
  recordAudit(db, { id: null, name: 'shell' }, { action: 'users.reset-2fa', targetId: user.id, summary: `username: ${user.username}` });
}

/** Sets flags on an existing account. */
export function setFlags(name: string, flags: { isApproved?: boolean; isAdmin?: boolean }): void {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  getDb().update(users).set(flags).where(eq(users.id, user.id)).run();
}

/**
 * ADMIN_USERNAME/ADMIN_PASSWORD: after this, an approved admin with that name exists and the
 * password works (the environment is authoritative for this one account). Answers what was
 * done and the admin's id.
 */
export async function ensureAdmin(name: string, password: string): Promise<{ outcome: 'created' | 'updated' | 'unchanged'; id: string }> {
  const user = findByUsername(name);
  if (!user) return { outcome: 'created', id: await createAccount({ username: name, password, isAdmin: true }) };
  let changed = false;
  if (!user.isAdmin || !user.isApproved) {
    getDb().update(users).set({ isAdmin: true, isApproved: true }).where(eq(users.id, user.id)).run();
    changed = true;
  }
  const hash = credentialOf(user.id)?.password;
  const ctx = await getAuth().$context;
  if (!hash || !(await ctx.password.verify({ password, hash }))) {
    await writePassword(user.id, password);
    changed = true;
  }
  return { outcome: changed ? 'updated' : 'unchanged', id: user.id };
}
