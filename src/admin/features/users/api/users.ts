// The user management calls of the admin: list, approve or promote, delete, clear a sign-in pause.
import { API } from '#shared/api-paths.ts';
import { api } from '#lib/api-client.ts';
import type { UserUpdate } from '#shared/schemas/user.ts';
import type { Json } from '#shared/json.ts';
import type { AdminUserDto } from '#shared/schemas/user.ts';

/** A user as GET /api/admin/users returns it: no password, e-mail null when there is none. */
export type AdminUser = Json<AdminUserDto>;

export const USERS_PATH = API.users;

/** Sends one flag at a time; the body is checked by the same UserUpdateSchema on the server. */
export const updateUser = (id: string, change: UserUpdate) => api<AdminUser>('PATCH', API.adminUser(id), change);

export const deleteUser = (id: string) => api<{ success: true }>('DELETE', API.adminUser(id));

/** E-mails the user a reset link, or answers one to hand over (no e-mail address). */
export const requestResetLink = (id: string) => api<{ sent: true } | { url: string }>('POST', `${API.adminUser(id)}/reset-link`);

/** Lets the user sign in again at once after failed attempts paused the account. */
export const clearSignInPause = (id: string) => api<{ success: true }>('DELETE', `${USERS_PATH}/${encodeURIComponent(id)}/sign-in-pause`);
