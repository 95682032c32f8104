// better-auth on our SQLite: username + password, sessions in the `sessions` table,
// HttpOnly cookies. Approval is enforced where sessions are born, so no route can log in
// an account that an admin has not approved yet.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { passkey } from '@better-auth/passkey';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { twoFactor, username } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import { getDb, type Db } from '#server/db.ts';
import { accounts, passkeys, sessions, twoFactors, users, verifications } from '#db/schema/auth.ts';
import { env, type Env } from '#server/env.ts';
import { isHttpsUrl } from '#server/http/https.ts';
import { enqueueMail } from '#server/mail/outbox.ts';
import { passwordReset } from './mail.ts';
import { realEmail } from '#server/accounts/security/placeholder-email.ts';
import { DEVICE_COOKIE, deviceCookieOptions, noteSignIn } from '#server/accounts/security/sessions.ts';
import { TOTP_PERIOD, twoFactorAfter, twoFactorBefore } from '#server/accounts/security/two-factor.ts';

export { PLACEHOLDER_EMAIL_DOMAIN, placeholderEmail, realEmail } from '#server/accounts/security/placeholder-email.ts';

export const AWAITING_APPROVAL = 'Your account is awaiting admin approval. You can log in once an admin approves it.';

/** A passkey whose device did not check who holds it (no PIN, fingerprint or face). */
export const PASSKEY_NOT_VERIFYING = 'This passkey did not check that it is you (with a PIN, fingerprint or face), so it cannot sign you in. Use one that does, or your password.';

export const PASSKEY_NOT_VERIFYING_ADDED = 'This passkey did not check that it is you (with a PIN, fingerprint or face), so it cannot be added. Use one that does.';

/** The page where a reset link's token sets a new password. */
export const resetLink = (siteUrl: string, token: string) => `${siteUrl}/auth/reset?token=${encodeURIComponent(token)}`;

/** Where a sign-in completes with a session after a second step (a password alone: #server/accounts/auth-calls.ts login). */
const SIGN_IN_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/passkey/verify-authentication']);

export function createAuth(db: Db, env: Env) {
  const afterTwoFactor = twoFactorAfter(db);
  return betterAuth({
    appName: 'Personal Brand Site',
    baseURL: env.SITE_URL,
    basePath: '/api/auth',
    secret: env.BETTER_AUTH_SECRET,
    trustedOrigins: [env.SITE_URL],
    database: drizzleAdapter(db, { provider: 'sqlite', schema: { users, sessions, accounts, verifications, twoFactors, passkeys } }),
    user: {
      modelName: 'users',
      fields: { image: 'profileImageUrl' },
      additionalFields: {
        firstName: { type: 'string', required: false },
        lastName: { type: 'string', required: false },
        isAdmin: { type: 'boolean', required: false, defaultValue: false, input: false },
        isApproved: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    // No 'fresh session' rule (better-auth's default refuses some calls from a session signed in
    // over a day ago): every change the site offers asks for the password (and a code) itself,
    // adding a passkey included (security/passkeys.ts), and of the routes that rule guards it
    // offers only those and the read-only session list.
    session: { modelName: 'sessions', expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, freshAge: 0 },
    account: { modelName: 'accounts' },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      autoSignIn: false,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // Password reset: the link goes out through the outbox (never for a placeholder address),
      // works once for an hour, and a reset ends every session of the account.
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // Only queued here (the outbox sends it): nothing to wait for.
      sendResetPassword: ({ user, token }) => {
        const to = realEmail(user.email);
        if (to) enqueueMail(db, { kind: 'password-reset', to, ...passwordReset(resetLink(env.SITE_URL, token)) });
        return Promise.resolve();
      },
    },
    plugins: [
      username({ minUsernameLength: 3, maxUsernameLength: 50, usernameValidator: (name) => /^[A-Za-z0-9_.-]+$/.test(name) }),
      // TOTP from any authenticator app, ten single-use backup codes (stored encrypted), and
      // 'trust this device for 30 days'. The plugin's own lock (five wrong codes, fifteen
      // minutes) backs up the account's sign-in limit, which wrong codes count against too.
      twoFactor({
        issuer: 'Personal Brand Site',
        twoFactorTable: 'twoFactors',
        totpOptions: { period: TOTP_PERIOD, digits: 6 },
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
        trustDeviceMaxAge: 30 * 24 * 60 * 60,
        accountLockout: { enabled: true, maxFailedAttempts: 5, durationSeconds: 15 * 60 },
      }),
      // WebAuthn passkeys for the site's own origin; signing in with one needs no password and
      // no code, so it must be two factors on its own: the device and the PIN, fingerprint or
      // face that unlocks it. A passkey that only shows someone touched a key (no user
      // verification) is neither added nor accepted.
      passkey({
        rpID: new URL(env.SITE_URL).hostname,
        rpName: 'Personal Brand Site',
        origin: env.SITE_URL,
        schema: { passkey: { modelName: 'passkeys' } },
        authenticatorSelection: { userVerification: 'required' },
        registration: {
          afterVerification: ({ verification }) => {
            if (!verification.registrationInfo?.userVerified) throw new APIError('BAD_REQUEST', { message: PASSKEY_NOT_VERIFYING_ADDED });
          },
        },
        authentication: {
          afterVerification: ({ verification }) => {
            if (!verification.authenticationInfo.userVerified) throw new APIError('UNAUTHORIZED', { message: PASSKEY_NOT_VERIFYING });
          },
        },
      }),
    ],
    hooks: {
      before: twoFactorBefore(db),
      after: createAuthMiddleware(async (ctx) => {
        await afterTwoFactor(ctx);
        // A sign-in completed by a code or a passkey from a browser without the account's device cookie: its holder is told.
        const created = ctx.context.newSession;
        if (!created || isAPIError(ctx.context.returned) || !SIGN_IN_PATHS.has(ctx.path)) return;
        const device = noteSignIn(db, env.SITE_URL, created.session, ctx.getCookie(DEVICE_COOKIE));
        ctx.setCookie(DEVICE_COOKIE, device, deviceCookieOptions(env.SITE_URL));
      }),
    },
    // Our own endpoint wrapper rate-limits the public auth calls (see src/server/http).
    rateLimit: { enabled: false },
    advanced: { database: { generateId: 'uuid' }, cookiePrefix: 'site', useSecureCookies: isHttpsUrl(env.SITE_URL), defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' } },
    telemetry: { enabled: false },
    databaseHooks: {
      session: {
        create: {
          before: (session) => {
            const row = db.select({ ok: users.isApproved }).from(users).where(eq(users.id, session.userId)).get();
            if (!row?.ok) return Promise.reject(new APIError('FORBIDDEN', { message: AWAITING_APPROVAL }));
            return Promise.resolve();
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Auth | undefined;

/** The better-auth instance bound to this process's database and configuration. */
export function getAuth(): Auth {
  auth ??= createAuth(getDb(), env());
  return auth;
}
