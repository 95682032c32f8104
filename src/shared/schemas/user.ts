import * as z from 'zod';

export const UserUpdateSchema = z
  .object({ isApproved: z.boolean({ error: 'isApproved must be true or false' }).optional(), isAdmin: z.boolean({ error: 'isAdmin must be true or false' }).optional() })
  .refine((v) => v.isApproved !== undefined || v.isAdmin !== undefined, { message: 'Nothing to update: send isApproved or isAdmin' });
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const UserIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });

/** A user as the admin screen shows it: no password, the real e-mail or null. */
export interface AdminUserDto {
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
  /** Set while failed sign-ins make the account wait before the next attempt. */
  signInPausedUntil: Date | null;
}

/** The user screen's stat cards, counted over every account. */
export interface UserStatsDto {
  total: number;
  approved: number;
  admins: number;
  pending: number;
}
