// Single-use, expiring upload slots handed out by POST /api/objects/upload.
import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const uploadTokens = sqliteTable('upload_tokens', {
  /** SHA-256 of the secret in the upload URL (the secret itself is never stored). */
  id: text('id').primaryKey(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(now),
});
