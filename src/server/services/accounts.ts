// Operator-side account management (start-up bootstrap and the `npm run admin` CLI).
import { eq } from 'drizzle-orm';
import { accounts, users } from '../../../db/schema/auth.ts';
import { placeholderEmail } from '../auth.ts';
import { getAuth, getDb } from '../context.ts';

function findByUsername(name: string) {
  return getDb().select().from(users).where(eq(users.username, name.toLowerCase())).get();
}

/** Creates an approved account (admin when asked); returns its id. Fails if the name is taken. */
export async function createAccount(opts: {
  username: string;
  password: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  isAdmin?: boolean;
}): Promise<string> {
  if (findByUsername(opts.username)) throw new Error(`User "${opts.username}" already exists`);
  const ctx = await getAuth().$context;
  const user = await ctx.internalAdapter.createUser({
    email: opts.email?.toLowerCase() ?? placeholderEmail(opts.username),
    name: [opts.firstName, opts.lastName].filter(Boolean).join(' ') || opts.username,
    username: opts.username.toLowerCase(),
    displayUsername: opts.username,
    firstName: opts.firstName ?? null,
    lastName: opts.lastName ?? null,
  }, { method: 'admin' });
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: await ctx.password.hash(opts.password),
  });
  getDb()
    .update(users)
    .set({ isApproved: true, isAdmin: Boolean(opts.isAdmin) })
    .where(eq(users.id, user.id))
    .run();
  return user.id;
}

/** Sets a new password for an existing account. */
export async function setPassword(name: string, password: string): Promise<void> {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  const ctx = await getAuth().$context;
  const hash = await ctx.password.hash(password);
  const existing = getDb().select().from(accounts).where(eq(accounts.userId, user.id)).all();
  if (existing.some((a) => a.providerId === 'credential')) await ctx.internalAdapter.updatePassword(user.id, hash);
  else await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
}

/** Sets flags on an existing account. */
export function setFlags(name: string, flags: { isApproved?: boolean; isAdmin?: boolean }): void {
  const user = findByUsername(name);
  if (!user) throw new Error(`No user "${name}"`);
  getDb().update(users).set(flags).where(eq(users.id, user.id)).run();
}

/**
 * ADMIN_USERNAME/ADMIN_PASSWORD: after this, an approved admin with that name exists and the
 * password works (the environment is authoritative for this one account).
 */
export async function ensureAdmin(name: string, password: string): Promise<'created' | 'updated' | 'unchanged'> {
  const user = findByUsername(name);
  if (!user) {
    await createAccount({ username: name, password, isAdmin: true });
    return 'created';
  }
  let changed = false;
  if (!user.isAdmin || !user.isApproved) {
    setFlags(name, { isAdmin: true, isApproved: true });
    changed = true;
  }
  const ctx = await getAuth().$context;
  const credential = getDb()
    .select()
    .from(accounts)
    .where(eq(accounts.userId, user.id))
    .all()
    .find((a) => a.providerId === 'credential');
  if (!credential?.password || !(await ctx.password.verify({ password, hash: credential.password }))) {
    await setPassword(name, password);
    changed = true;
  }
  return changed ? 'updated' : 'unchanged';
}
