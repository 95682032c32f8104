import { sql } from 'drizzle-orm';

/** The current time in epoch milliseconds, computed by SQLite (column defaults, updatedAt). */
export const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
