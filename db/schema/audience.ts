// The audience beyond the subscriber row: tags, each subscriber's history, and subscriber
// imports (a CSV from another service, worked through in the background from where it stopped).
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { newsletterSubscribers } from './content.ts';
import { nowMs } from './now.ts';

export const tags = sqliteTable(
  'tags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** 1 to 100 characters; one tag per name whatever its (ASCII) case: 'VIP' and 'vip' are one. */
    name: text('name', { length: 100 }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  (t) => [uniqueIndex('tags_name_unique').on(sql`lower(${t.name})`)],
);

export const subscriberTags = sqliteTable(
  'subscriber_tags',
  {
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  },
  // Segments find a tag's subscribers from this index alone.
  (t) => [primaryKey({ columns: [t.subscriberId, t.tagId] }), index('subscriber_tags_tag_idx').on(t.tagId, t.subscriberId)],
);

/** What happened to a subscriber, newest last: the history the admin reads. */
export const subscriberEvents = sqliteTable(
  'subscriber_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    /** subscribed, confirmed, imported, tagged, untagged, email, purchase, booking, unsubscribed, bounced. */
    what: text('what').notNull(),
    /** What a person reads: the tag, the e-mail's subject, the product's name. */
    detail: text('detail'),
    /** What code matches on: `form:<slug>`, `tag:<name>`, `product:<id>`, `package:<id>`, `event-type:<slug>`, `broadcast:<id>`, `import:<id>`. */
    ref: text('ref'),
  },
  (t) => [index('subscriber_events_subscriber_idx').on(t.subscriberId, t.at)],
);

/**
 * A subscriber import: the uploaded CSV stays on disk until it is done, and each batch of rows
 * is written in one transaction with the place reached (`offset` bytes, `line`), so a restart
 * goes on from there and no row counts twice. A dry run counts what would happen, writing nothing.
 */
export const subscriberImports = sqliteTable(
  'subscriber_imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    status: text('status', { enum: ['running', 'done', 'failed'] })
      .notNull()
      .default('running'),
    dryRun: integer('dry_run', { mode: 'boolean' }).notNull().default(false),
    fileName: text('file_name').notNull(),
    /** Where the CSV is kept while the import needs it; '' once it is removed (the import done, or a preview a day old). */
    filePath: text('file_path').notNull(),
    fileSize: integer('file_size').notNull(),
    /** The subscribers' `source` is `import:<sourceName>`. */
    sourceName: text('source_name').notNull(),
    /** The service the header row was recognised as (kit, mailchimp, substack, ghost, beehiiv), or null for a plain CSV. */
    format: text('format'),
    /** JSON: the column index of each field found (ImportMapping). */
    mapping: text('mapping').notNull(),
    /** The line break and the delimiter the file uses (read from its header row). */
    newline: text('newline').notNull(),
    delimiter: text('delimiter').notNull(),
    /** JSON: tag names added to every row. */
    tags: text('tags').notNull().default('[]'),
    /** Bytes of the file handled (the header included) and the line the next row starts on. */
    offset: integer('offset').notNull(),
    line: integer('line').notNull(),
    total: integer('total').notNull().default(0),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    suppressed: integer('suppressed').notNull().default(0),
    /** How many rows were refused; `invalid` lists the first of them as JSON [{line, reason}]. */
    invalidCount: integer('invalid_count').notNull().default(0),
    invalid: text('invalid').notNull().default('[]'),
    error: text('error'),
    startedBy: text('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('subscriber_imports_status_idx').on(t.status, t.id)],
);
