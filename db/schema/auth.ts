// Tables better-auth reads and writes (user, session, account, verification), with the
// spec's user fields added. The password hash lives in `accounts` (better-auth's design).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username', { length: 50 }).notNull(),
    displayUsername: text('display_username'),
    // better-auth requires an e-mail; users who give none get a reserved placeholder
    // (see docs/decisions/002-auth.md), never shown.
    email: text('email').notNull(),
    /** Where sign-in alerts go when not to `email` (an account with a placeholder, or a mailbox of its own for them). */
    alertEmail: text('alert_email'),
    emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
    name: text('name').notNull().default(''),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
    isApproved: integer('is_approved', { mode: 'boolean' }).notNull().default(false),
    /** better-auth's twoFactor plugin: on once a TOTP app's code confirmed the set-up. */
    twoFactorEnabled: integer('two_factor_enabled', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('users_username_unique').on(t.username), uniqueIndex('users_email_unique').on(t.email)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.token), index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: integer('access_token_expires_at', { mode: 'timestamp_ms' }),
    refreshTokenExpiresAt: integer('refresh_token_expires_at', { mode: 'timestamp_ms' }),
    scope: text('scope'),
    password: text('password', { length: 255 }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('accounts_user_idx').on(t.userId)],
);

export const verifications = sqliteTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

// Failed sign-ins per account name (existing or not, so the answer reveals nothing), whatever
// the address they come from: past a few, each attempt waits twice as long as the last.
export const loginThrottles = sqliteTable('login_throttles', {
  username: text('username').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: integer('last_failure_at', { mode: 'timestamp_ms' }).notNull(),
  lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
});

// better-auth's twoFactor plugin: the TOTP secret and the backup codes (both encrypted with the
// auth secret), and its own count of wrong codes. `lastTotpStep` is ours: the 30-second step
// of the last code accepted, so a code cannot be used twice.
export const twoFactors = sqliteTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: integer('verified', { mode: 'boolean' }).notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    lastTotpStep: integer('last_totp_step'),
  },
  (t) => [uniqueIndex('two_factors_user_unique').on(t.userId), index('two_factors_secret_idx').on(t.secret)],
);

// better-auth's passkey plugin: WebAuthn credentials (public keys only).
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull(),
    transports: text('transports'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).default(nowMs),
    aaguid: text('aaguid'),
  },
  (t) => [index('passkeys_user_idx').on(t.userId), uniqueIndex('passkeys_credential_unique').on(t.credentialID)],
);

// Browsers an account has signed in from (a hash of the account, browser and system: never the
// user agent itself), so a sign-in from another one can be told to its holder.
export const knownDevices = sqliteTable(
  'known_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    firstSeen: integer('first_seen', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.userId, t.device] })],
);
