// Forgotten passwords, on better-auth's reset flow: a single-use link valid for an hour, sent to
// the account's e-mail (by name or address); setting the new password ends every session.
import { isAPIError } from 'better-auth/api';
import { eq, or } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { users, verifications } from '#db/schema/auth.ts';
import { realEmail, resetLink } from './auth.ts';
import { env } from '#server/env.ts';
import { getAuth } from './auth.ts';
import { getDb } from '#server/db.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { mailConfigured } from '#server/mail/outbox.ts';
import { TOO_COMMON, isCommonPassword } from '#server/passwords.ts';
import { forgetTrustedDevices } from '#server/accounts/security/sessions.ts';

/** What everyone is told after asking, whether or not such an account exists. */
export const RESET_REQUESTED = 'If an account with that username or e-mail has an e-mail address, a link to set a new password is on its way. It works for one hour.';
export const RESET_DONE = 'Your password has been changed. Log in with the new one.';
export const RESET_LINK_INVALID = 'This link has expired or was already used. Ask for a new one.';
const LINK_VALID_MS = 60 * 60_000;

const findAccount = (identifier: string) => {
  const key = identifier.trim().toLowerCase();
  return getDb()
    .select()
    .from(users)
    .where(or(eq(users.username, key), eq(users.email, key)))
    .get();
};

/** Sends a reset link to the account named (by username or e-mail) when it has an address. */
export async function requestPasswordReset(identifier: string): Promise<void> {
  const user = findAccount(identifier);
  const email = realEmail(user?.email);
  if (email) await getAuth().api.requestPasswordReset({ body: { email } });
}

/** Sets the new password of a reset link's account (same rules as sign-up); ends its sessions. */
export async function resetPassword(token: string, password: string): Promise<void> {
  if (isCommonPassword(password)) throw badRequest(TOO_COMMON, [{ path: ['password'], message: TOO_COMMON }]);
  // Whose link it is (better-auth keeps the account's id with it, and deletes it when used).
  const owner = getDb()
    .select({ userId: verifications.value })
    .from(verifications)
    .where(eq(verifications.identifier, `reset-password:${token}`))
    .get();
  try {
    await getAuth().api.resetPassword({ body: { token, newPassword: password } });
  } catch (err) {
    if (isAPIError(err)) throw badRequest(RESET_LINK_INVALID, [{ path: ['token'], message: RESET_LINK_INVALID }]);
    throw err;
  }
  // Every session has ended; no browser skips the second factor on the old trust either.
  if (owner) forgetTrustedDevices(getDb(), owner.userId);
}

/**
 * For an admin: e-mails the user a reset link ({sent: true}) or, when the account has no
 * address (or e-mail is not set up), makes one to hand over ({url}, shown to the admin once).
 */
export async function adminResetLink(userId: string): Promise<{ sent: true } | { url: string }> {
  const user = getDb().select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw notFound('User not found');
  const email = realEmail(user.email);
  if (email && mailConfigured()) {
    await getAuth().api.requestPasswordReset({ body: { email } });
    return { sent: true };
  }
  // The same verification record better-auth's own flow writes, so its reset endpoint takes it.
  const token = randomBytes(18).toString('base64url');
  const ctx = await getAuth().$context;
  await ctx.internalAdapter.createVerificationValue({ value: user.id, identifier: `reset-password:${token}`, expiresAt: new Date(Date.now() + LINK_VALID_MS) });
  return { url: resetLink(env().SITE_URL, token) };
}
