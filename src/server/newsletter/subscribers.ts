// Newsletter subscribers, kept locally (and synced to the mailing service when configured).
import { and, count, desc, eq, lt, or, sql } from 'drizzle-orm';
import { countGoal } from '#server/analytics/goals.ts';
import type { SubscriberDto, SubscriberPageDto, SubscriberPageQuery, SubscriberStatus } from '#shared/schemas/newsletter.ts';
import { csvRows } from '#shared/subscriber-csv.ts';
import { containsText, countIf, windowOf } from '#server/http/paging.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '#db/client.ts';
import { newsletterSubscribers } from '#db/schema/content.ts';
import { env } from '#server/env.ts';
import { getDb } from '#server/db.ts';
import { enqueueMail, mailConfigured } from '#server/mail/outbox.ts';
import { confirmSubscription, welcome } from './mail.ts';
import { recordSubscriberEvent } from './events.ts';
import { unsubscribeHeaders } from '#server/mail/layout.ts';
import { conflict, notFound } from '#server/http/errors.ts';
import { cancelUnsubscribe, catchUpOnce, checkKitConfirmationsSoon, kitFormConfirms, queuePush, queueUnsubscribe } from './kit.ts';
import type { SubscribeInput } from '#shared/schemas/newsletter.ts';

export type Subscriber = typeof newsletterSubscribers.$inferSelect;

/** What a visitor is told after subscribing when a confirmation e-mail is on its way. */
export const CHECK_INBOX = 'Please check your inbox to confirm your subscription.';

/** Whether a new subscriber is sent a confirmation e-mail first (the site's, or the Kit form's) rather than being subscribed at once. */
export const confirmsFirst = () => mailConfigured() || kitFormConfirms();
const CONFIRM_VALID_MS = 7 * 24 * 60 * 60_000;
const RESEND_AFTER_MS = 60 * 60_000;

export interface SubscribeResult {
  subscriber: Subscriber;
  created: boolean;
  /** The confirmation e-mail decides (double opt-in): the subscriber is not active yet. */
  pending: boolean;
  message: string;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const siteLink = (path: string, token: string) => `${env().SITE_URL}${path}?token=${encodeURIComponent(token)}`;

/** A subscriber's unsubscribe token, given now to a row from before there were any (made before the column existed). */
export function unsubscribeTokenOf(tx: Pick<Db, 'update'>, subscriber: Pick<Subscriber, 'id' | 'unsubscribeToken'>): string {
  if (subscriber.unsubscribeToken) return subscriber.unsubscribeToken;
  const token = randomBytes(24).toString('base64url');
  tx.update(newsletterSubscribers).set({ unsubscribeToken: token }).where(eq(newsletterSubscribers.id, subscriber.id)).run();
  return token;
}

/** The unsubscribe link of a subscriber. */
const unsubscribeUrl = (tx: Pick<Db, 'update'>, subscriber: Subscriber) => unsubscribeLink(unsubscribeTokenOf(tx, subscriber));

/** The unsubscribe link of a subscriber's token (the page asks; its button or a one-click POST unsubscribes). */
export const unsubscribeLink = (token: string) => siteLink('/newsletter/unsubscribe', token);

/** Sends (in `tx`) a fresh confirmation link: a new single-use token, valid for 7 days. */
function sendConfirmation(tx: Pick<Db, 'update' | 'insert'>, subscriber: Subscriber): void {
  const token = randomBytes(24).toString('base64url');
  tx.update(newsletterSubscribers)
    .set({ confirmTokenHash: sha256(token), confirmSentAt: new Date(), isActive: false, unsubscribedAt: null })
    .where(eq(newsletterSubscribers.id, subscriber.id))
    .run();
  const mail = confirmSubscription(siteLink('/newsletter/confirm', token));
  enqueueMail(tx, { kind: 'confirm-subscription', to: subscriber.email, ...mail, headers: unsubscribeHeaders(unsubscribeUrl(tx, subscriber)) });
}

/**
 * Adds a subscriber; an existing e-mail is never duplicated. With e-mail set up, a new or
 * returning subscriber is pending until they follow the confirmation link (re-sent at most once
 * an hour), and every visitor hears the same 'check your inbox', whether the address was known
 * or not. With a Kit form, a new address is pending until Kit's own confirmation e-mail is
 * followed. Without either, subscribers are active at once.
 */
export function subscribe(input: SubscribeInput): SubscribeResult {
  const db = getDb();
  const throughKit = kitFormConfirms() ? subscribeThroughKitForm(input) : null;
  if (throughKit) return throughKit;
  // An address known here and not receiving issues (unsubscribed, waiting for a confirmation, or
  // bounced) is subscribed again only by its own confirmation: anyone can type an address, as
  // often as they like. Only Kit confirmations that really go out (KIT_FORM_ID with KIT_API_KEY)
  // stand in for the site's own: a form id alone sends nothing to Kit.
  if (!mailConfigured() || (kitFormConfirms() && !needsConfirmation(db, input.email))) return subscribeAtOnce(input);
  const result = db.transaction((tx) => {
    const inserted = tx.insert(newsletterSubscribers).values({ email: input.email, name: input.name, isActive: false }).onConflictDoNothing({ target: newsletterSubscribers.email }).returning().get();
    if (inserted) {
      sendConfirmation(tx, inserted);
      return { subscriber: inserted, created: true };
    }
    const existing = tx.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, input.email)).get()!;
    const recentlySent = existing.confirmSentAt && Date.now() - existing.confirmSentAt.getTime() < RESEND_AFTER_MS;
    // A bounced address subscribing again gets a link too: following it shows the mailbox works.
    if (!getsIssues(existing) && !recentlySent) sendConfirmation(tx, existing);
    if (input.name && !existing.name) tx.update(newsletterSubscribers).set({ name: input.name }).where(eq(newsletterSubscribers.id, existing.id)).run();
    return { subscriber: existing, created: false };
  });
  return { ...result, pending: true, message: CHECK_INBOX };
}

/**
 * A new address through the Kit form: kept pending (no issue goes to it) and pushed to Kit, which
 * sends the form's confirmation; a background job reads from Kit when it was followed. Without
 * e-mail of this site's own, Kit's confirmation is the only proof that an address is the
 * visitor's, so a known address that gets no issues (waiting for Kit, or unsubscribed) waits for
 * Kit again rather than being made active because someone typed it. Null for the rest: an
 * address getting issues, or one this site's own confirmation link can prove.
 */
function subscribeThroughKitForm(input: SubscribeInput): SubscribeResult | null {
  const db = getDb();
  const inserted = db
    .insert(newsletterSubscribers)
    .values({ email: input.email, name: input.name, isActive: false, kitPendingSince: new Date() })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning()
    .get();
  if (inserted) {
    queuePush(inserted.id);
    return { subscriber: inserted, created: true, pending: true, message: CHECK_INBOX };
  }
  if (mailConfigured()) return null;
  const existing = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, input.email)).get()!;
  if (getsIssues(existing)) return null;
  if (!existing.kitPendingSince) {
    // Subscribing again after leaving: the form asks Kit to confirm once more, and an
    // unsubscribe not yet passed on to Kit is dropped.
    db.transaction((tx) => {
      tx.update(newsletterSubscribers).set({ kitPendingSince: new Date(), unsubscribedAt: null }).where(eq(newsletterSubscribers.id, existing.id)).run();
      cancelUnsubscribe(existing.convertKitId, tx);
    });
    queuePush(existing.id);
  }
  return { subscriber: existing, created: false, pending: true, message: CHECK_INBOX };
}

/** Whether a subscriber is on the list issues go to: active, and not bounced. */
const getsIssues = (s: Pick<Subscriber, 'isActive' | 'bouncedAt'>) => s.isActive && !s.bouncedAt;

/** Whether an address is known here and gets no issues (inactive, or bounced). */
function needsConfirmation(db: Db, email: string): boolean {
  const row = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get();
  return Boolean(row && !getsIssues(row));
}

/** Without e-mail (or new, with a Kit form): active at once (and reactivated), synced to Kit. */
function subscribeAtOnce(input: SubscribeInput): SubscribeResult {
  const db = getDb();
  const inserted = db.insert(newsletterSubscribers).values({ email: input.email, name: input.name }).onConflictDoNothing({ target: newsletterSubscribers.email }).returning().get();
  catchUpOnce();
  if (inserted) {
    queuePush(inserted.id);
    return { subscriber: inserted, created: true, pending: false, message: 'Thanks for subscribing!' };
  }
  const existing = db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, input.email)).get()!;
  if (!existing.isActive || (input.name && !existing.name)) {
    const updated = db.transaction((tx) => {
      const row = tx
        .update(newsletterSubscribers)
        .set({ isActive: true, unsubscribedAt: null, name: existing.name ?? input.name, kitPendingSince: null })
        .where(eq(newsletterSubscribers.id, existing.id))
        .returning()
        .get();
      cancelUnsubscribe(row.convertKitId, tx);
      return row;
    });
    if (!updated.convertKitId) queuePush(updated.id);
    return { subscriber: updated, created: false, pending: false, message: 'You are already subscribed.' };
  }
  return { subscriber: existing, created: false, pending: false, message: 'You are already subscribed.' };
}

/**
 * Follows a confirmation link: the subscriber becomes active (within 7 days of the e-mail), gets
 * a welcome e-mail and is synced to Kit. Answers what happened. The link opened again (mail
 * filters open every link before the reader does) answers 'confirmed' and does nothing more; an
 * unsubscribe ends it.
 */
export function confirmSubscriber(token: string): 'confirmed' | 'expired' | 'invalid' {
  if (!token) return 'invalid';
  const db = getDb();
  const outcome = db.transaction((tx) => {
    const row = tx
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.confirmTokenHash, sha256(token)))
      .get();
    if (!row) return null;
    if (getsIssues(row)) return 'again' as const;
    if (!row.confirmSentAt || Date.now() - row.confirmSentAt.getTime() > CONFIRM_VALID_MS) return 'expired' as const;
    const confirmed = tx
      .update(newsletterSubscribers)
      // Following the link shows the mailbox takes mail: an earlier bounce no longer holds.
      .set({ isActive: true, confirmedAt: new Date(), unsubscribedAt: null, bouncedAt: null, kitPendingSince: null })
      .where(eq(newsletterSubscribers.id, row.id))
      .returning()
      .get();
    cancelUnsubscribe(confirmed.convertKitId, tx);
    countGoal(tx, 'newsletter_confirmed', { ref: `subscriber:${confirmed.id}` });
    recordSubscriberEvent(tx, { subscriberId: confirmed.id, what: 'confirmed' });
    const url = unsubscribeUrl(tx, confirmed);
    enqueueMail(tx, { kind: 'welcome', to: confirmed.email, ...welcome(url), headers: unsubscribeHeaders(url) });
    return confirmed;
  });
  if (outcome === null) return 'invalid';
  if (outcome === 'expired') return 'expired';
  if (outcome === 'again') return 'confirmed';
  if (!outcome.convertKitId) queuePush(outcome.id);
  return 'confirmed';
}

/** Where the holder of an unsubscribe link stands, without changing anything: null for an unknown link. */
export function unsubscribeLinkState(token: string): 'subscribed' | 'unsubscribed' | null {
  if (!token) return null;
  const row = getDb()
    .select({ isActive: newsletterSubscribers.isActive, unsubscribedAt: newsletterSubscribers.unsubscribedAt })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.unsubscribeToken, token))
    .get();
  if (!row) return null;
  return row.unsubscribedAt && !row.isActive ? 'unsubscribed' : 'subscribed';
}

/** Unsubscribes the holder of an unsubscribe link (the page's button, or a one-click POST): inactive here and at Kit. False if unknown. */
export function unsubscribeByToken(token: string): boolean {
  if (!token) return false;
  return getDb().transaction((tx) => {
    const row = tx
      .update(newsletterSubscribers)
      .set({ isActive: false, unsubscribedAt: new Date(), confirmTokenHash: null, kitPendingSince: null })
      .where(eq(newsletterSubscribers.unsubscribeToken, token))
      .returning()
      .get();
    if (!row) return false;
    queueUnsubscribe(row.convertKitId, tx);
    return true;
  });
}

/**
 * Where a subscriber stands. Bounced: their mailbox refused mail for good, and nothing goes there
 * until they confirm anew (or the owner clears the bounce), whatever else the row says. Active:
 * issues go to them (exactly the send dialog's audience). Pending: a confirmation e-mail, the
 * site's or Kit's, is out. Unsubscribed: the rest, not on the list with nothing waiting (left by
 * their own link, switched off before these states existed, or a sign-up Kit gave up on).
 */
export const subscriberStatus = (s: Pick<Subscriber, 'isActive' | 'bouncedAt' | 'unsubscribedAt' | 'confirmTokenHash' | 'kitPendingSince'>): SubscriberStatus =>
  s.bouncedAt ? 'bounced' : s.isActive ? 'active' : !s.unsubscribedAt && (s.confirmTokenHash || s.kitPendingSince) ? 'pending' : 'unsubscribed';

/** `subscriberStatus` as SQL, for the counts (the same rule, in the same order). */
const statusSql = (t: typeof newsletterSubscribers) =>
  sql<SubscriberStatus>`case when ${t.bouncedAt} is not null then 'bounced' when ${t.isActive} then 'active' when ${t.unsubscribedAt} is null and (${t.confirmTokenHash} is not null or ${t.kitPendingSince} is not null) then 'pending' else 'unsubscribed' end`;

const toDto = (s: Subscriber): SubscriberDto => {
  const status = subscriberStatus(s);
  return { id: s.id, email: s.email, name: s.name, convertKitId: s.convertKitId, isActive: status === 'active', status, subscribedAt: s.subscribedAt };
};
const NEWEST_FIRST = [desc(newsletterSubscribers.subscribedAt), desc(newsletterSubscribers.id)];

/** Every subscriber, newest first (the plain GET, which other tools rely on). */
export function listSubscribers(): SubscriberDto[] {
  catchUpOnce();
  checkKitConfirmationsSoon();
  return getDb()
    .select()
    .from(newsletterSubscribers)
    .orderBy(...NEWEST_FIRST)
    .all()
    .map(toDto);
}

/**
 * One page of subscribers (newest first) matching the search, how many match, and the stat
 * cards' figures over the whole list, all counted by SQL: the screen never loads the list.
 * `since` is where the admin's "this month" starts (their calendar, so the browser says).
 */
export function pageSubscribers(query: SubscriberPageQuery): SubscriberPageDto {
  catchUpOnce();
  // The owner looks at the list: sign-ups waiting for Kit's confirmation are asked about now.
  checkKitConfirmationsSoon();
  const db = getDb();
  const { page, pageSize, offset } = windowOf(query);
  const where = containsText(query.q, newsletterSubscribers.email, newsletterSubscribers.name);
  const items = db
    .select()
    .from(newsletterSubscribers)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(pageSize)
    .offset(offset)
    .all()
    .map(toDto);
  const total = where ? db.select({ n: count() }).from(newsletterSubscribers).where(where).get()!.n : undefined;
  const t = newsletterSubscribers;
  const sinceMs = (query.since ?? new Date(Date.now() - 30 * 24 * 3600 * 1000)).getTime();
  const status = statusSql(t);
  const stats = db
    .select({
      total: count(),
      active: countIf(sql`${status} = 'active'`),
      pending: countIf(sql`${status} = 'pending'`),
      unsubscribed: countIf(sql`${status} = 'unsubscribed'`),
      bounced: countIf(sql`${status} = 'bounced'`),
      synced: countIf(sql`coalesce(${t.convertKitId}, '') != ''`),
      thisMonth: countIf(sql`${t.subscribedAt} >= ${sinceMs}`),
    })
    .from(t)
    .get()!;
  return { items, total: total ?? stats.total, page, pageSize, stats: { ...stats, syncRate: stats.total ? Math.round((stats.synced / stats.total) * 100) : 0 } };
}

/** Rows read at a time by the CSV export. */
const CSV_BATCH = 1000;

/**
 * The whole list as CSV, read from the database a batch at a time while it is sent (newest
 * first, after the header row and a byte-order mark), so 50,000 subscribers never sit in memory.
 */
export function subscribersCsvStream(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: Date; id: number } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\ufeff${csvRows([], true)}`));
        return;
      }
      const t = newsletterSubscribers;
      const rows = getDb()
        .select()
        .from(t)
        .where(after ? or(lt(t.subscribedAt, after.at), and(eq(t.subscribedAt, after.at), lt(t.id, after.id))) : undefined)
        .orderBy(...NEWEST_FIRST)
        .limit(CSV_BATCH)
        .all();
      if (rows.length === 0) return controller.close();
      const last = rows.at(-1)!;
      after = { at: last.subscribedAt, id: last.id };
      controller.enqueue(encoder.encode(csvRows(rows.map(toDto), false)));
    },
  });
}

/**
 * Clears a bounce the owner knows was a mistake (a refusal that was about the relay, or a mailbox
 * since mended): the subscriber is back to what they were before it, so one who had confirmed and
 * not left gets issues again. 404 for an unknown subscriber, 409 for one that has not bounced.
 */
export function clearBounce(id: number): SubscriberDto {
  const row = getDb().transaction((tx) => {
    const found = tx.select({ bouncedAt: newsletterSubscribers.bouncedAt }).from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).get();
    if (!found) throw notFound('Subscriber not found');
    if (!found.bouncedAt) throw conflict('This subscriber has not bounced.');
    return tx.update(newsletterSubscribers).set({ bouncedAt: null }).where(eq(newsletterSubscribers.id, id)).returning().get();
  });
  if (row.isActive && !row.convertKitId) queuePush(row.id);
  return toDto(row);
}

/** Deletes a subscriber here and unsubscribes them at the mailing service. */
export function deleteSubscriber(id: number): void {
  getDb().transaction((tx) => {
    const row = tx.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)).returning().get();
    if (!row) throw notFound('Subscriber not found');
    queueUnsubscribe(row.convertKitId, tx);
  });
}
