// Sign-up forms (each with its own page, tags and an optional free download), the consent
// record every sign-up leaves, and the ledger of free downloads sent, so each goes out once.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { products } from './commerce.ts';
import { newsletterSubscribers } from './content.ts';
import { nowMs } from './now.ts';

export const signupForms = sqliteTable(
  'signup_forms',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name', { length: 255 }).notNull(),
    /** The form's page is /f/{slug}; a subscriber who came through it has this as `source`. */
    slug: text('slug', { length: 60 }).notNull(),
    heading: text('heading', { length: 200 }),
    text: text('text', { length: 2000 }),
    buttonLabel: text('button_label', { length: 60 }),
    /** JSON: the tag names a confirmed sign-up gets. */
    tags: text('tags').notNull().default('[]'),
    /** A product whose files are e-mailed once to each confirmed sign-up (it need not be for sale). */
    incentiveProductId: integer('incentive_product_id').references(() => products.id, { onDelete: 'set null' }),
    /** What the visitor reads after sending the form. */
    thankYou: text('thank_you', { length: 1000 }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('signup_forms_slug_unique').on(t.slug)],
);

/**
 * What a person agreed to, one row per sign-up: the form (null for the site's generic
 * newsletter form), the page it was sent from, the words they saw, when they were asked and
 * when they confirmed (null until they do). Written by the newsletter for every sign-up.
 */
export const consentRecords = sqliteTable(
  'consent_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    formId: integer('form_id').references(() => signupForms.id, { onDelete: 'set null' }),
    /** The form's slug when the person signed up (kept when the form is renamed or deleted). */
    formSlug: text('form_slug', { length: 60 }),
    /** The page's path (or, from another site, its address as the browser gave it). */
    page: text('page', { length: 500 }),
    /** JSON {heading, text, button}: the wording shown. */
    wording: text('wording').notNull(),
    askedAt: integer('asked_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('consent_records_subscriber_idx').on(t.subscriberId, t.askedAt), index('consent_records_form_idx').on(t.formId, t.confirmedAt)],
);

/** Each free download sent: one per person and product, unless the owner sends it again. */
export const incentiveDeliveries = sqliteTable(
  'incentive_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    formId: integer('form_id').references(() => signupForms.id, { onDelete: 'set null' }),
    /** How many times it was sent (more than 1 only when the owner sent it again). */
    sends: integer('sends').notNull().default(1),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('incentive_deliveries_unique').on(t.subscriberId, t.productId)],
);
