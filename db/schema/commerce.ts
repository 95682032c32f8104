// Products for sale and the orders that pay for them.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';


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
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    paymentIntentId: text('payment_intent_id').notNull(),
    customerEmail: text('customer_email'),
    lastEventId: text('last_event_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('orders_payment_intent_unique').on(t.paymentIntentId), index('orders_created_idx').on(t.createdAt)],
);

/** Stripe webhook events already handled, so a replayed event is recorded once. */
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
