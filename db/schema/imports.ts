// What WordPress imports brought in: each item by its WordPress id (so a re-import updates or
// skips instead of duplicating), each downloaded file by its old URL (stored once), and each
// run with its progress and report.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { nowMs } from './now.ts';

export const wordpressItems = sqliteTable(
  'wordpress_items',
  {
    /** The exporting site (<wp:base_site_url>): ids are only unique within one site. */
    site: text('site').notNull(),
    kind: text('kind', { enum: ['post', 'page', 'episode', 'comment'] }).notNull(),
    wpId: integer('wp_id').notNull(),
    /** The blog post's, episode's or comment's id here. */
    localId: integer('local_id').notNull(),
    /** A digest of the WordPress item as last imported: unchanged items are skipped. */
    hash: text('hash').notNull(),
    importedAt: integer('imported_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.site, t.kind, t.wpId] })],
);

export const wordpressMedia = sqliteTable('wordpress_media', {
  /** The file's address on the old site. */
  sourceUrl: text('source_url').primaryKey(),
  /** Where this site serves it (/uploads/…). */
  url: text('url').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

export const importRuns = sqliteTable('import_runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  status: text('status', { enum: ['running', 'done', 'failed'] })
    .notNull()
    .default('running'),
  fileName: text('file_name'),
  /** Items in the export, and how many have been looked at. */
  total: integer('total').notNull().default(0),
  done: integer('done').notNull().default(0),
  imported: integer('imported').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  /** The end report as plain text (what was imported, updated, skipped and failed, with reasons). */
  report: text('report'),
  error: text('error'),
  startedBy: text('started_by').references(() => users.id, { onDelete: 'set null' }),
  startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
});
