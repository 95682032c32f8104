// Products for sale and the orders that pay for them.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clientPackages } from './clients.ts';
import { newsletterSubscribers } from './content.ts';
import { nowMs } from './now.ts';

export const ORDER_STATUS = ['pending', 'succeeded', 'failed', 'refunded', 'disputed', 'lost'] as const;

export const products = sqliteTable('products', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name', { length: 255 }).notNull(),
  description: text('description'),
  /** Price in cents (USD). */
  price: integer('price').notNull(),
  stripePriceId: text('stripe_price_id', { length: 255 }),
  isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    // Orders outlive a deleted product: keep its name and price as they were when bought.
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    productName: text('product_name').notNull(),
    /** Amount charged, in cents. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    /**
     * refunded: paid, then refunded (its download links no longer work). disputed: paid, and the
     * cardholder's bank is disputing it (a chargeback): what it bought is paused until the
     * dispute closes, back to succeeded when won, lost when lost (what it bought has ended).
     */
    status: text('status', { enum: ORDER_STATUS }).notNull().default('pending'),
    paymentIntentId: text('payment_intent_id').notNull(),
    customerEmail: text('customer_email'),
    /** A coaching package's payment (one per paid invoice of a subscription). */
    clientPackageId: integer('client_package_id').references(() => clientPackages.id, { onDelete: 'set null' }),
    /** The Stripe invoice it paid, for a package paid over time. */
    invoiceId: text('invoice_id'),
    lastEventId: text('last_event_id'),
    refundedAt: integer('refunded_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('orders_payment_intent_unique').on(t.paymentIntentId), index('orders_created_idx').on(t.createdAt), index('orders_client_package_idx').on(t.clientPackageId)],
);

/** Stripe webhook events already handled, so a replayed event is recorded once. */
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

/**
 * The files a buyer of a product gets. They live in the private files folder under a random
 * name, never below the public uploads URL, and are sent only for a valid download grant.
 */
export const productFiles = sqliteTable(
  'product_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The name the buyer's download gets (the uploaded file's name). */
    fileName: text('file_name').notNull(),
    /** The file's name in the private folder (random, 32 hex digits). */
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('product_files_product_idx').on(t.productId)],
);

/**
 * A paid order's right to download one file (or a subscriber's, for a form's free download):
 * its link works until `expiresAt` and for `maxDownloads` completed downloads, unless revoked
 * (refund). The link's token is derived from the id and `nonce` with the server's secret, so it
 * is never stored.
 */
export const downloadGrants = sqliteTable(
  'download_grants',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The paid order; null for a free download given to a subscriber. */
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** The subscriber a free download (a form's incentive) was given to; its fresh links go to their address. */
    subscriberId: integer('subscriber_id').references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => productFiles.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    downloads: integer('downloads').notNull().default(0),
    maxDownloads: integer('max_downloads').notNull(),
    /** When the last download was taken: a used-up link may still resume it for a while. */
    lastDownloadAt: integer('last_download_at', { mode: 'timestamp_ms' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [index('download_grants_order_idx').on(t.orderId)],
);
