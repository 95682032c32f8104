import * as z from 'zod';

export const LoginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(50, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(255, 'Password is required'),
});
export type LoginInput = z.infer<typeof LoginSchema>;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const RegisterSchema = z.object({
  username: z
    .string({ error: 'Username must be at least 3 characters' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, numbers, dots, dashes and underscores'),
  email: z.preprocess(
    emptyToUndefined,
    z.email('Valid email is required').trim().toLowerCase().max(255, 'Valid email is required').optional(),
  ),
  firstName: z.preprocess(emptyToUndefined, z.string().trim().max(255, 'First name too long').optional()),
  lastName: z.preprocess(emptyToUndefined, z.string().trim().max(255, 'Last name too long').optional()),
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    .max(128, 'Password must be at most 128 characters'),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/** The current user as the browser sees it. */
export interface ClientUser {
  id: string;
  username: string;
  firstName: string | null;
  isAdmin: boolean;
}
