// Users as admins manage them. Passwords and sessions are better-auth's business.
import { asc, eq } from 'drizzle-orm';
import { sessions, users } from '../../../db/schema/auth.ts';
import { blogPosts } from '../../../db/schema/content.ts';
import { realEmail } from '../auth.ts';
import { getDb } from '../context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import type { UserUpdate } from '../../shared/schemas/user.ts';
import { nowMs } from '../../../db/schema/now.ts';

/** A user as the admin screen shows it: no password, the real e-mail or null. */
export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
  isApproved: boolean;
  createdAt: Date;
  updatedAt: Date;
}

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

function toAdminUser({ displayUsername, email, ...r }: Row): AdminUser {
  return { ...r, username: displayUsername || r.username, email: realEmail(email) };
}

export function listUsers(): AdminUser[] {
  return getDb().select(columns).from(users).orderBy(asc(users.createdAt)).all().map(toAdminUser);
}

export function getUserById(id: string): AdminUser | undefined {
  const row = getDb().select(columns).from(users).where(eq(users.id, id)).get();
  return row ? toAdminUser(row) : undefined;
}

/** Applies an admin's change; an admin cannot change their own admin flag. */
export function updateUser(actorId: string, id: string, change: UserUpdate): AdminUser {
  if (id === actorId && change.isAdmin !== undefined) throw forbidden('You cannot change your own admin status');
  if (id === actorId && change.isApproved === false) throw forbidden('You cannot revoke your own approval');
  const row = getDb().transaction((tx) => {
    const updated = tx
      .update(users)
      .set({ ...change, updatedAt: nowMs })
      .where(eq(users.id, id))
      .returning(columns)
      .get();
    // Revoking approval ends the user's sessions at once.
    if (updated && change.isApproved === false) tx.delete(sessions).where(eq(sessions.userId, id)).run();
    return updated;
  });
  if (!row) throw notFound('User not found');
  return toAdminUser(row);
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
