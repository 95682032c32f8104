// Single-use, expiring upload slots handed out by POST /api/objects/upload.
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
