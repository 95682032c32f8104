// Single-use, expiring upload slots handed out by POST /api/objects/upload, and the files
// those uploads stored.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { nowMs } from './now.ts';

export const uploadTokens = sqliteTable('upload_tokens', {
  /** SHA-256 of the secret in the upload URL (the secret itself is never stored). */
  id: text('id').primaryKey(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

/**
 * Every file an upload stored, wherever it lives: its public URL, type and byte length. The
 * podcast feed reads length and type from here for audio the site does not serve itself
 * (UploadThing URLs carry no extension and cannot be stat'ed).
 */
export const storedFiles = sqliteTable('stored_files', {
  url: text('url').primaryKey(),
  /** 'local' (under UPLOADS_DIR) or 'uploadthing'. */
  storage: text('storage', { enum: ['local', 'uploadthing'] }).notNull(),
  /** The file's key with its storage: the path below UPLOADS_DIR, or UploadThing's file key. */
  key: text('key').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});

/**
 * Smaller copies of an uploaded image (WebP and AVIF at a few widths, beside the original),
 * made in the background after the upload: one row per original, with its own size once read.
 */
export const imageVariants = sqliteTable('image_variants', {
  /** The original's URL (/uploads/…). */
  url: text('url').primaryKey(),
  status: text('status', { enum: ['pending', 'done', 'failed'] })
    .notNull()
    .default('pending'),
  width: integer('width'),
  height: integer('height'),
  /** The widths made, each in both formats. */
  widths: text('widths', { mode: 'json' }).$type<number[]>(),
  attempts: integer('attempts').notNull().default(0),
  error: text('error'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
