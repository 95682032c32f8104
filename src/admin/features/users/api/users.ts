// The user management calls of the admin: list, approve or promote, delete, clear a sign-in pause.
import { api } from '#lib/api-client.ts';
import type { UserUpdate } from '#shared/schemas/user.ts';

/** A user as GET /api/admin/users returns it: no password, e-mail null when there is none. */
export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
  isApproved: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set while failed sign-ins make the account wait before the next attempt. */
  signInPausedUntil: string | null;
}

export const USERS_PATH = '/api/admin/users';

/** Sends one flag at a time; the body is checked by the same UserUpdateSchema on the server. */
export const updateUser = (id: string, change: UserUpdate) => api<AdminUser>('PATCH', `${USERS_PATH}/${encodeURIComponent(id)}`, change);

export const deleteUser = (id: string) => api<{ success: true }>('DELETE', `${USERS_PATH}/${encodeURIComponent(id)}`);

/** E-mails the user a reset link, or answers one to hand over (no e-mail address). */
export const requestResetLink = (id: string) => api<{ sent: true } | { url: string }>('POST', `${USERS_PATH}/${encodeURIComponent(id)}/reset-link`);

/** Lets the user sign in again at once after failed attempts paused the account. */
export const clearSignInPause = (id: string) => api<{ success: true }>('DELETE', `${USERS_PATH}/${encodeURIComponent(id)}/sign-in-pause`);
