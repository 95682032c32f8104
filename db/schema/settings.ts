// The owner's settings (Admin → Settings), one row per setting with its value as JSON; a
// setting without a row has its default.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const siteSettings = sqliteTable('site_settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
