// Users as admins manage them. Passwords and sessions are better-auth's business.
import { asc, desc, count, eq, sql } from 'drizzle-orm';
import type { PageDto, PageQuery } from '#shared/schemas/paging.ts';
import { containsText, countIf, windowOf } from '#server/http/paging.ts';
import { loginThrottles, sessions, users } from '#db/schema/auth.ts';
import { blogPosts } from '#db/schema/content.ts';
import { PLACEHOLDER_EMAIL_DOMAIN, realEmail } from './auth.ts';
import { getDb } from '#server/db.ts';
import { forbidden, notFound } from '#server/http/errors.ts';
import type { AdminUserDto, UserStatsDto, UserUpdate } from '#shared/schemas/user.ts';
import { nowMs } from '#db/schema/now.ts';
import { forgetTrustedDevices } from '#server/accounts/security/sessions.ts';
import { clearLoginFailures, loginLockedUntil } from './login-throttle.ts';
import { notifyAccountApproved } from './notify.ts';

export type AdminUser = AdminUserDto;

const columns = {
  id: users.id,
  username: users.username,
  displayUsername: users.displayUsername,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
  isAdmin: users.isAdmin,
  isApproved: users.isApproved,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

type Row = { [K in keyof typeof columns]: (typeof users.$inferSelect)[K extends 'displayUsername' ? 'displayUsername' : K] };

function toAdminUser({ displayUsername, email, ...r }: Row, pausedUntil: Date | null = null): AdminUser {
  return { ...r, username: displayUsername || r.username, email: realEmail(email), signInPausedUntil: pausedUntil && pausedUntil.getTime() > Date.now() ? pausedUntil : null };
}

export function listUsers(): AdminUser[] {
  return getDb()
    .select({ ...columns, pausedUntil: loginThrottles.lockedUntil })
    .from(users)
    .leftJoin(loginThrottles, eq(loginThrottles.username, users.username))
    .orderBy(asc(users.createdAt))
    .all()
    .map(({ pausedUntil, ...row }) => toAdminUser(row, pausedUntil));
}

/**
 * One page of users, newest first (the full list is oldest first), searched in username, name
 * and real e-mail (not the stand-in of an account without one), with the stat cards' counts.
 */
export function pageUsers(query: PageQuery): PageDto<AdminUser, UserStatsDto> {
  const db = getDb();
  const { page, pageSize, offset } = windowOf(query);
  const email = sql`case when ${users.email} like ${`%@${PLACEHOLDER_EMAIL_DOMAIN}`} then null else ${users.email} end`;
  const where = containsText(query.q, users.username, users.displayUsername, email, users.firstName, users.lastName);
  const items = db
    .select({ ...columns, pausedUntil: loginThrottles.lockedUntil })
    .from(users)
    .leftJoin(loginThrottles, eq(loginThrottles.username, users.username))
    .where(where)
    // Newest accounts first, so fresh registrations waiting for approval are at the top.
    .orderBy(desc(users.createdAt), asc(users.username))
    .limit(pageSize)
    .offset(offset)
    .all()
    .map(({ pausedUntil, ...row }) => toAdminUser(row, pausedUntil));
  const stats = db
    .select({ total: count(), approved: countIf(users.isApproved), admins: countIf(users.isAdmin) })
    .from(users)
    .get()!;
  // Without a search every account matches: the stat card's count is the match count.
  const total = where ? db.select({ n: count() }).from(users).where(where).get()!.n : stats.total;
  return { items, total, page, pageSize, stats: { ...stats, pending: stats.total - stats.approved } };
}

/** Lets the user try signing in again at once (an admin clearing the wait failed sign-ins set). */
export function clearSignInPause(id: string): void {
  const user = getDb().select({ username: users.username }).from(users).where(eq(users.id, id)).get();
  if (!user) throw notFound('User not found');
  clearLoginFailures(user.username);
}

export function getUserById(id: string): AdminUser | undefined {
  const row = getDb().select(columns).from(users).where(eq(users.id, id)).get();
  return row ? toAdminUser(row, loginLockedUntil(row.username)) : undefined;
}

/** Applies an admin's change; an admin cannot change their own admin flag. */
export function updateUser(actorId: string, id: string, change: UserUpdate): AdminUser {
  if (id === actorId && change.isAdmin !== undefined) throw forbidden('You cannot change your own admin status');
  if (id === actorId && change.isApproved === false) throw forbidden('You cannot revoke your own approval');
  const row = getDb().transaction((tx) => {
    const before = tx.select({ isApproved: users.isApproved }).from(users).where(eq(users.id, id)).get();
    const updated = tx
      .update(users)
      .set({ ...change, updatedAt: nowMs })
      .where(eq(users.id, id))
      .returning(columns)
      .get();
    // Revoking approval ends the user's sessions at once, and forgets the browsers trusted to
    // skip the second factor: approved again, each one gives a code again.
    if (updated && change.isApproved === false) {
      tx.delete(sessions).where(eq(sessions.userId, id)).run();
      forgetTrustedDevices(tx, id);
    }
    // Approving tells the user (when they gave an e-mail).
    if (updated && change.isApproved === true && before && !before.isApproved) {
      notifyAccountApproved(tx, { email: realEmail(updated.email), name: updated.firstName || updated.displayUsername || updated.username });
    }
    return updated;
  });
  if (!row) throw notFound('User not found');
  return toAdminUser(row, loginLockedUntil(row.username));
}

/** Deletes a user; their posts pass to the admin who deletes them. Nobody deletes themselves. */
export function deleteUser(actorId: string, id: string): void {
  if (id === actorId) throw forbidden('You cannot delete your own account');
  if (!getUserById(id)) throw notFound('User not found');
  getDb().transaction((tx) => {
    tx.update(blogPosts).set({ authorId: actorId }).where(eq(blogPosts.authorId, id)).run();
    tx.delete(users).where(eq(users.id, id)).run();
  });
}
