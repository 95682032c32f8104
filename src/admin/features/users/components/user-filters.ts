// What the stat cards and the search box of the user screen compute from the list.
import type { AdminUser } from '#admin/features/users/api/users.ts';

export interface UserStats {
  total: number;
  approved: number;
  admins: number;
  pending: number;
}

export function userStats(list: readonly AdminUser[]): UserStats {
  const approved = list.filter((u) => u.isApproved).length;
  return { total: list.length, approved, admins: list.filter((u) => u.isAdmin).length, pending: list.length - approved };
}

/** Case-insensitive substring match on username or e-mail; a blank query keeps everyone. */
export function filterUsers(list: readonly AdminUser[], query: string): AdminUser[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((u) => u.username.toLowerCase().includes(q) || (u.email ?? '').toLowerCase().includes(q));
}

/** Newest accounts first, so fresh registrations waiting for approval are at the top. */
export function newestFirst(list: readonly AdminUser[]): AdminUser[] {
  return [...list].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.username.localeCompare(b.username));
}
