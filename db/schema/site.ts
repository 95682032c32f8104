// The site document (brand, page copy, packages, show details; shape in
// src/shared/schemas/site.ts): one row with the published version and the owner's draft, and a
// revision kept for every publish (and for a draft a restore replaced). Documents are stored as JSON text.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { nowMs } from './now.ts';

export const siteDocument = sqliteTable('site_document', {
  /** Always 1: there is one site. */
  id: integer('id').primaryKey(),
  published: text('published').notNull(),
  /** What the owner saved and has not published yet; null when there is none. */
  draft: text('draft'),
  draftUpdatedAt: integer('draft_updated_at', { mode: 'timestamp_ms' }),
  publishedAt: integer('published_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  /**
   * Counts the row's changes (a draft saved or discarded, a publish, a restore): an editor that
   * names the version it loaded cannot overwrite a change it has not seen.
   */
  version: integer('version').notNull().default(0),
});

export const siteRevisions = sqliteTable('site_revisions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** The document as it was published. */
  document: text('document').notNull(),
  publishedAt: integer('published_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  /** Who published it (null for the first version, made from the defaults, a replaced draft, or a deleted user). */
  publishedBy: text('published_by').references(() => users.id, { onDelete: 'set null' }),
  /**
   * 'published': a publish (`publishedAt` is when). 'draft': a draft that restoring a revision
   * replaced, kept so it can be restored in turn (`publishedAt` is when it was replaced).
   */
  kind: text('kind', { enum: ['published', 'draft'] })
    .notNull()
    .default('published'),
});
