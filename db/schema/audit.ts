// What staff changed, for the owner to look back on: who, when, what, and the id with a short
// summary (never a secret, a password, a token or a full body). Rows are kept two years; the
// database itself refuses to change one or to delete one younger than that (triggers in the
// migration), so no path through the app can edit or remove them.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    /** The account that acted (null for the shell), and its name as it was then. */
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    /** What was done, e.g. 'posts.update', 'users.delete', 'site.publish'. */
    action: text('action').notNull(),
    /** The id of what it was done to ('' when there is none, e.g. settings). */
    targetId: text('target_id').notNull().default(''),
    summary: text('summary').notNull().default(''),
  },
  (t) => [index('audit_log_ts_idx').on(t.ts), index('audit_log_action_idx').on(t.action, t.ts), index('audit_log_actor_idx').on(t.actorId, t.ts)],
);
