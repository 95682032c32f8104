// Operator-side account management (start-up bootstrap and the `npm run admin` CLI).
import { and, eq } from 'drizzle-orm';
import { accounts, sessions, twoFactors, users } from '#db/schema/auth.ts';
import { siteSettings } from '#db/schema/settings.ts';
import { recordAudit } from '#server/accounts/security/audit.ts';
import { forgetTrustedDevices } from '#server/accounts/security/sessions.ts';
import { clearLoginFailures } from './login-throttle.ts';
import { placeholderEmail } from './auth.ts';
import { getAuth } from './auth.ts';
import { getDb } from '#server/db.ts';

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
 * Writes a new password from the shell and signs the account out everywhere: its sessions end
 * and its devices trusted for 30 days are forgotten (whoever knew the old password is out, and a
 * code is asked again); the wait its wrong passwords earned is cleared and the change is written
 * to the audit log. Answers how many sessions were ended.
 */
async function replacePassword(user: { id: string; username: string }, password: string, why: string): Promise<number> {
  await writePassword(user.id, password);
  const db = getDb();
  const ended = db.transaction((tx) => {
    forgetTrustedDevices(tx, user.id);
    return tx.delete(sessions).where(eq(sessions.userId, user.id)).run().changes;
  });
  clearLoginFailures(user.username);
  recordAudit(db, { id: null, name: 'shell' }, { action: 'users.reset-password', targetId: user.id, summary: `username: ${user.username} (${why})` });
  return ended;
}

/** Sets a new password for an existing account from the shell (see replacePassword). */
export async function setPassword(name: string, password: string): Promise<number> {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  return replacePassword(user, password, 'npm run admin -- reset-password');
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

/** Where the fingerprint of the ADMIN_USERNAME/ADMIN_PASSWORD pair last applied is kept (not an owner's setting). */
const APPLIED_KEY = 'adminPasswordApplied';

/** The id of the account ADMIN_USERNAME made or took on (not an owner's setting). */
const ACCOUNT_KEY = 'adminUsernameAccount';

/** The pair as one secret, kept only as a slow salted hash (as passwords are): tells a changed ADMIN_PASSWORD from the same one, whatever else changed (BETTER_AUTH_SECRET included). */
const pairOf = (name: string, password: string) => `${name.toLowerCase()}\0${password}`;

function readSetting(key: string): string | null {
  const value = getDb().select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key)).get()?.value;
  return typeof value === 'string' ? value : null;
}

function writeSetting(key: string, value: string): void {
  getDb().insert(siteSettings).values({ key, value }).onConflictDoUpdate({ target: siteSettings.key, set: { value } }).run();
}

export type EnsureAdminResult = { outcome: 'created' | 'updated' | 'unchanged'; id: string } | { outcome: 'refused'; reason: string };

/**
 * ADMIN_USERNAME/ADMIN_PASSWORD: after this, an approved admin with that name exists. Its
 * password is the one given when the account is made, and again whenever ADMIN_PASSWORD changes;
 * a start with the same ADMIN_PASSWORD leaves the password alone, so one the owner changed on
 * the site since stays. A password written here signs the account out everywhere. Answers what
 * was done and the admin's id.
 *
 * The name is only taken on when the account is this setting's own (made by it on an earlier
 * start) or already an admin. Anyone may register a name before the operator picks it, with
 * their own e-mail (where 'Forgot password?' sends its link), passkeys and two-factor app; made
 * an admin, such an account would be theirs to sign in to. It is left as it is, and the answer
 * says why: the start goes on without that admin.
 */
export async function ensureAdmin(name: string, password: string): Promise<EnsureAdminResult> {
  const ctx = await getAuth().$context;
  const pair = pairOf(name, password);
  const user = findByUsername(name);
  if (!user) {
    const id = await createAccount({ username: name, password, isAdmin: true });
    writeSetting(ACCOUNT_KEY, id);
    writeSetting(APPLIED_KEY, await ctx.password.hash(pair));
    return { outcome: 'created', id };
  }
  if (!user.isAdmin && readSetting(ACCOUNT_KEY) !== user.id) {
    return {
      outcome: 'refused',
      reason:
        `an account named "${user.username}" was registered on the site and is not an admin, so it is not made one ` +
        '(its e-mail, password and passkeys are whoever registered it). If it is yours, make it an admin in Admin → Users ' +
        `or with \`npm run admin -- promote ${user.username}\`; otherwise choose another ADMIN_USERNAME.`,
    };
  }
  writeSetting(ACCOUNT_KEY, user.id);
  let changed = false;
  if (!user.isAdmin || !user.isApproved) {
    getDb().update(users).set({ isAdmin: true, isApproved: true }).where(eq(users.id, user.id)).run();
    changed = true;
  }
  const applied = readSetting(APPLIED_KEY);
  // A value that is not a hash of the kind (written by another version) counts as none.
  if (!applied || !(await ctx.password.verify({ password: pair, hash: applied }).catch(() => false))) {
    const hash = credentialOf(user.id)?.password;
    if (!hash || !(await ctx.password.verify({ password, hash }))) {
      await replacePassword(user, password, 'ADMIN_PASSWORD changed');
      changed = true;
    }
    writeSetting(APPLIED_KEY, await ctx.password.hash(pair));
  }
  return { outcome: changed ? 'updated' : 'unchanged', id: user.id };
}
