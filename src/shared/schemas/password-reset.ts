import * as z from 'zod';

export const ResetRequestSchema = z.object({
  identifier: z.string({ error: 'Enter your username or e-mail' }).trim().min(1, 'Enter your username or e-mail').max(255, 'Enter your username or e-mail'),
});

export const ResetPasswordSchema = z.object({
  token: z.string({ error: 'This link has expired or was already used. Ask for a new one.' }).min(1, 'This link has expired or was already used. Ask for a new one.').max(200),
  password: z.string({ error: 'Password must be at least 6 characters' }).min(6, 'Password must be at least 6 characters').max(128, 'Password must be at most 128 characters'),
});
