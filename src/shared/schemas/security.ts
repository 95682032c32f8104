// Staff security: the audit log's rows and filters, the signed-in sessions of an account.
import * as z from 'zod';
import { PageQuerySchema } from './paging.ts';

const day = z.iso.date({ error: 'Dates are YYYY-MM-DD' });

/** Admin → Audit log: one page, narrowed by who, what (an action or its first part, e.g. 'posts') and the days. */
export const AuditQuerySchema = PageQuerySchema.extend({ actor: z.string().max(100).optional(), action: z.string().max(100).optional(), from: day.optional(), to: day.optional() });
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export interface AuditEntryDto {
  id: number;
  ts: Date;
  actorId: string | null;
  actorName: string;
  action: string;
  targetId: string;
  summary: string;
}

/** A signed-in session of the account, as Account → Security lists it (never its token). */
export interface SessionDto {
  id: string;
  /** 'Chrome on macOS', from the user agent. */
  device: string;
  createdAt: Date;
  lastActiveAt: Date;
  current: boolean;
}

export const SessionIdSchema = z.object({ id: z.string().min(1).max(100) });

export const ChangePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(128),
  newPassword: z.string({ error: 'Password must be at least 12 characters' }).min(12, 'Password must be at least 12 characters').max(128, 'Password must be at most 128 characters'),
});

/** Confirming the account before adding a passkey: the password, and a current code when two-factor is on. */
export const PasskeyConfirmSchema = z.object({ password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password').max(128), code: z.string().max(20).optional() });

/** The signed link of a sign-in alert: the session it ends, and its signature. */
export const SessionEndSchema = z.object({ s: z.string().min(1).max(100), sig: z.string().min(1).max(100) });

/** Account → Security: where sign-in alerts go; empty for the account's own address (or, for an admin without one, the site's contact e-mail). */
export const AlertEmailSchema = z.object({
  alertEmail: z.union([z.literal(''), z.email({ error: 'Enter a valid e-mail address' }).max(254, 'E-mail must be at most 254 characters')], { error: 'Enter a valid e-mail address' }),
});
export type AlertEmailInput = z.infer<typeof AlertEmailSchema>;

/** The alert address as set, and where alerts go now (null: nowhere, the account has no address). */
export interface AlertEmailDto {
  alertEmail: string;
  alertsGoTo: string | null;
}
