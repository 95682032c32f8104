// Privacy requests (a person asks for a copy of their data, or for its erasure) and the
// addresses erased, kept only as a keyed hash so that no import adds them again.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nowMs } from './now.ts';

export const PRIVACY_KINDS = ['access', 'erasure'] as const;
/**
 * sent: the person was sent a link (valid 24 hours) and has not used it. done: the copy was
 * downloaded, or the data erased. An owner's own export or erasure is recorded as done at once.
 */
export const PRIVACY_STATES = ['sent', 'done'] as const;

export const privacyRequests = sqliteTable(
  'privacy_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: PRIVACY_KINDS }).notNull(),
    state: text('state', { enum: PRIVACY_STATES }).notNull().default('sent'),
    /** Who asked: the person by the public form, or the owner (a request that came another way). */
    via: text('via', { enum: ['form', 'owner'] })
      .notNull()
      .default('form'),
    /** The keyed hash of the address (never the address itself). */
    addressHash: text('address_hash').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
    doneAt: integer('done_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('privacy_requests_created_idx').on(t.createdAt), index('privacy_requests_address_idx').on(t.addressHash)],
);

/** Erased addresses, as the keyed hash only: an import skips them; a new confirmed sign-up lifts one. */
export const suppressedAddresses = sqliteTable('suppressed_addresses', {
  addressHash: text('address_hash').primaryKey(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().default(nowMs),
});
