// Coaching packages sold on the site: the clients who bought them, each package they hold
// (with its Stripe subscription when paid over time), the coupons, and the Stripe prices made
// for packages paid by the month. The package itself (name, price, billing, sessions) lives in
// the site document; a client's package keeps what was bought as it was then.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { nowMs } from './now.ts';

/** Someone who started a package checkout: their e-mail, Stripe customer and (once paid) account. */
export const clients = sqliteTable(
  'clients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    /** Made (or linked by e-mail) at the first payment. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    stripeCustomerId: text('stripe_customer_id'),
    /** The owner's notes, never shown to the client. */
    notes: text('notes').notNull().default(''),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('clients_email_unique').on(t.email), index('clients_user_idx').on(t.userId)],
);

export const PACKAGE_BILLING = ['one_time', 'instalments', 'monthly'] as const;
/**
 * pending: checkout started, nothing paid. active: paid (or paying on time). past_due: a payment
 * failed and Stripe is retrying. completed: every instalment paid. ended: cancelled, or Stripe
 * gave up. refunded: a one-time package's payment was refunded.
 */
export const CLIENT_PACKAGE_STATUS = ['pending', 'active', 'past_due', 'completed', 'ended', 'refunded'] as const;

export const clientPackages = sqliteTable(
  'client_packages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    /** The package's id in the site document, and its name and terms when bought. */
    packageId: text('package_id').notNull(),
    packageName: text('package_name').notNull(),
    billing: text('billing', { enum: PACKAGE_BILLING }).notNull(),
    /** Cents of each payment (the whole price when paid at once), before any coupon. */
    amount: integer('amount').notNull(),
    /** How many payments an instalment plan has; null otherwise. */
    instalments: integer('instalments'),
    /** Sessions each payment brings: once for one-time and instalment packages, every month for monthly ones. */
    sessionsPerGrant: integer('sessions_per_grant').notNull().default(0),
    /** Sessions the owner added by hand. */
    extraSessions: integer('extra_sessions').notNull().default(0),
    /** The booking event type its sessions are booked as (its slug); '' = none. */
    eventType: text('event_type').notNull().default(''),
    /** The digital product whose files come with it (downloads), if any. */
    productId: integer('product_id'),
    couponId: integer('coupon_id'),
    status: text('status', { enum: CLIENT_PACKAGE_STATUS }).notNull().default('pending'),
    /** One-time packages: the PaymentIntent. Others: the Subscription. */
    paymentIntentId: text('payment_intent_id'),
    subscriptionId: text('subscription_id'),
    /** When the last subscription event applied was made at Stripe (older ones are not applied over it). */
    subscriptionEventAt: integer('subscription_event_at'),
    nextPaymentAt: integer('next_payment_at', { mode: 'timestamp_ms' }),
    /** The hosted page where the client can pay a failed invoice with another card. */
    payUrl: text('pay_url'),
    endedAt: integer('ended_at', { mode: 'timestamp_ms' }),
    /** The owner ended it (Admin → Clients): a payment heard of afterwards does not bring it back. */
    endedByOwner: integer('ended_by_owner', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [
    index('client_packages_client_idx').on(t.clientId),
    uniqueIndex('client_packages_intent_unique').on(t.paymentIntentId),
    uniqueIndex('client_packages_subscription_unique').on(t.subscriptionId),
  ],
);

export const coupons = sqliteTable(
  'coupons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Upper case; what the buyer types (in any case). */
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOff: integer('amount_off'),
    /** once: the first payment; months: the first `months` payments (every one of a one-time package's single payment). */
    duration: text('duration', { enum: ['once', 'months'] }).notNull(),
    months: integer('months'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    maxRedemptions: integer('max_redemptions'),
    /** Paid checkouts that used it. */
    redemptions: integer('redemptions').notNull().default(0),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    stripeCouponId: text('stripe_coupon_id'),
    stripePromotionCodeId: text('stripe_promotion_code_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('coupons_code_unique').on(t.code)],
);

/** The Stripe Price made for a package paid over time, per amount (a new price when the owner changes it). */
export const packagePrices = sqliteTable(
  'package_prices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    packageId: text('package_id').notNull(),
    amount: integer('amount').notNull(),
    stripePriceId: text('stripe_price_id').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('package_prices_unique').on(t.packageId, t.amount)],
);
