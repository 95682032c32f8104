// Segments: saved rules over the subscriber list (tags, source, subscription dates), evaluated
// in SQL whenever they are counted or a broadcast to them starts sending.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const segments = sqliteTable('segments', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** 1 to 100 characters. */
  name: text('name', { length: 100 }).notNull(),
  /** JSON: the rules (SegmentMatch), as the owner saved them. */
  match: text('match').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
