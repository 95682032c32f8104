// Written with zod/mini: the login/register island ships this schema to the browser, and
// mini keeps that page inside the JavaScript budget (docs/decisions/004).
import * as z from 'zod/mini';

export const LoginSchema = z.object({
  username: z.string({ error: 'Username is required' }).check(z.trim(), z.minLength(1, 'Username is required'), z.maxLength(50, 'Username is required')),
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(255, 'Password is required')),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const WRONG_CODE = 'That code is not right. Check your app and try again.';
export const SIGN_IN_AGAIN = 'Your sign-in took too long. Please enter your password again.';

/** The second step of signing in: a 6-digit code from the app, or a backup code ('backup' on). */
export const SecondFactorSchema = z.object({
  code: z.string({ error: 'Enter the code' }).check(z.trim(), z.minLength(6, 'Enter the code'), z.maxLength(20, 'Enter the code')),
  trustDevice: z._default(
    z.pipe(
      z.transform((v) => v === true || v === 'on' || v === 'true'),
      z.boolean(),
    ),
    false,
  ),
  backup: z._default(
    z.pipe(
      z.transform((v) => v === true || v === 'on' || v === 'true'),
      z.boolean(),
    ),
    false,
  ),
});
export type SecondFactorInput = z.infer<typeof SecondFactorSchema>;

/** '' and whitespace-only mean "not given": sent and stored as absent. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalName = (label: string) => z.pipe(z.transform(blankToUndefined), z.optional(z.string().check(z.trim(), z.maxLength(255, `${label} too long`))));

/** A new account's username (sign-up, and the ADMIN_USERNAME the environment sets). */
export const UsernameSchema = z
  .string({ error: 'Username must be at least 3 characters' })
  .check(
    z.trim(),
    z.minLength(3, 'Username must be at least 3 characters'),
    z.maxLength(50, 'Username must be at most 50 characters'),
    z.regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, numbers, dots, dashes and underscores'),
  );

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: z.pipe(
    z.transform(blankToUndefined),
    z.optional(z.string({ error: 'Valid email is required' }).check(z.trim(), z.toLowerCase(), z.maxLength(255, 'Valid email is required'), z.email('Valid email is required'))),
  ),
  firstName: optionalName('First name'),
  lastName: optionalName('Last name'),
  password: z.string({ error: 'Password must be at least 6 characters' }).check(z.minLength(6, 'Password must be at least 6 characters'), z.maxLength(128, 'Password must be at most 128 characters')),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/** The current user as the browser sees it. */
export interface ClientUser {
  id: string;
  username: string;
  firstName: string | null;
  isAdmin: boolean;
  twoFactorEnabled: boolean;
  /** An admin who must turn on two-factor before anything else (REQUIRE_2FA_FOR_ADMINS). */
  mustSetUpTwoFactor: boolean;
}
