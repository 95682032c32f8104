// Newsletter issues: drafts the owner writes, and the switches of a send (start, pause, resume,
// cancel, retry the failed). Starting a send freezes the audience: one ledger row per confirmed,
// active subscriber at that moment, written a chunk at a time before the issue is marked sending.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#db/client.ts';
import { broadcastRecipients, broadcasts } from '#db/schema/broadcasts.ts';
import { blogPosts, newsletterSubscribers } from '#db/schema/content.ts';
import { env } from '#server/env.ts';
import { badRequest, conflict, HttpError, notFound } from '#server/http/errors.ts';
import { ifMatchVersion, type SeenVersion } from '#server/http/if-match.ts';
import { htmlToText, sanitizeSavedHtml } from '#server/html/sanitize.ts';
import type { BroadcastDto, BroadcastInput, DnsCheck } from '#shared/schemas/broadcast.ts';
import type { HistoryItemDto } from '#shared/schemas/audience.ts';
import { slugify } from '#shared/format.ts';
import { sentInLastDay } from './daily-limit.ts';
import { dailyWindow, timeLeft, type DailyWindow } from './throttle.ts';
import { activeSubscribers, segmentMatch, segmentWhere } from '#server/audience/segments.ts';

type Row = typeof broadcasts.$inferSelect;

/** Slugs that name other pages under /newsletter. */
const RESERVED = new Set(['archive', 'confirm', 'unsubscribe', 'rss', 'feed', 'o', 'c']);

function uniqueSlug(db: Db, subject: string): string {
  const base = slugify(subject).slice(0, 80) || 'issue';
  for (let n = 1; ; n++) {
    const slug = n === 1 && !RESERVED.has(base) ? base : `${base}-${n}`;
    if (!db.select({ id: broadcasts.id }).from(broadcasts).where(eq(broadcasts.slug, slug)).get()) return slug;
  }
}

/** How many ledger rows of each broadcast stand in each status. */
function countsOf(db: Db, ids: number[]) {
  const out = new Map<number, Record<string, number>>();
  if (ids.length === 0) return out;
  const rows = db
    .select({ id: broadcastRecipients.broadcastId, status: broadcastRecipients.status, n: count(), dup: sql<number>`sum(${broadcastRecipients.possiblyDuplicated})` })
    .from(broadcastRecipients)
    .where(inArray(broadcastRecipients.broadcastId, ids))
    .groupBy(broadcastRecipients.broadcastId, broadcastRecipients.status)
    .all();
  for (const r of rows) {
    const c = out.get(r.id) ?? {};
    c[r.status] = r.n;
    c.dup = (c.dup ?? 0) + (r.dup ?? 0);
    out.set(r.id, c);
  }
  // Recipients who have unsubscribed since the issue started going out.
  const gone = db
    .select({ id: broadcastRecipients.broadcastId, n: count() })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .innerJoin(newsletterSubscribers, eq(newsletterSubscribers.id, broadcastRecipients.subscriberId))
    .where(and(inArray(broadcastRecipients.broadcastId, ids), sql`${newsletterSubscribers.unsubscribedAt} >= ${broadcasts.startedAt}`))
    .groupBy(broadcastRecipients.broadcastId)
    .all();
  for (const g of gone) out.set(g.id, { ...out.get(g.id), unsubscribed: g.n });
  return out;
}

/** What BROADCAST_DAILY_LIMIT leaves now (null without one): one count of the last 24 hours' messages, sequence e-mails included. */
function dailyOf(db: Db): DailyWindow | null {
  const limit = env().BROADCAST_DAILY_LIMIT;
  if (!limit) return null;
  const now = Date.now();
  const last = sentInLastDay(db, now);
  return dailyWindow(limit, last.n, last.oldest, now);
}

function toDto(row: Row, c: Record<string, number> = {}, day: DailyWindow | null = null): BroadcastDto {
  const pending = (c.pending ?? 0) + (c.sending ?? 0);
  const left = row.status === 'sending' ? timeLeft(pending, env().BROADCAST_RATE, day, Date.now()) : null;
  return {
    id: row.id,
    subject: row.subject,
    preheader: row.preheader,
    content: row.content,
    postId: row.postId,
    slug: row.slug,
    status: row.status,
    pauseReason: row.pauseReason,
    version: row.updatedAt.getTime(),
    total: row.total,
    // A message being handed over counts as pending: nothing shows 'sent' before it is.
    pending,
    sent: c.sent ?? 0,
    failed: c.failed ?? 0,
    bounced: c.bounced ?? 0,
    skipped: c.skipped ?? 0,
    possiblyDuplicated: c.dup ?? 0,
    unsubscribedSince: c.unsubscribed ?? 0,
    etaSeconds: left?.seconds ?? null,
    waitingForDailyLimit: left?.waitingForDailyLimit ?? false,
    dailyLimit: env().BROADCAST_DAILY_LIMIT ?? null,
    subscribersOnly: row.subscribersOnly,
    track: row.track,
    segmentId: row.segmentId,
    opens: row.opens,
    clicks: row.clicks,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

function requireRow(db: Db, id: number): Row {
  const row = db.select().from(broadcasts).where(eq(broadcasts.id, id)).get();
  if (!row) throw notFound('Broadcast not found');
  return row;
}

export function getBroadcast(db: Db, id: number): BroadcastDto {
  const row = requireRow(db, id);
  return toDto(row, countsOf(db, [id]).get(id), row.status === 'sending' ? dailyOf(db) : null);
}

export function listBroadcasts(db: Db): BroadcastDto[] {
  const rows = db.select().from(broadcasts).orderBy(desc(broadcasts.createdAt), desc(broadcasts.id)).limit(500).all();
  const counts = countsOf(
    db,
    rows.map((r) => r.id),
  );
  const day = rows.some((r) => r.status === 'sending') ? dailyOf(db) : null;
  return rows.map((r) => toDto(r, counts.get(r.id), day));
}

/** The fields of a draft from what the owner wrote; a post it starts from must exist. */
function draftFields(db: Db, input: BroadcastInput) {
  if (input.postId && !db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.id, input.postId)).get()) {
    throw badRequest('Post not found', [{ path: ['postId'], message: 'Post not found' }]);
  }
  // Content with no text or picture once cleaned (a script, say) would send every subscriber a blank issue.
  const content = sanitizeSavedHtml(input.content);
  if (!htmlToText(content) && !/<(img|iframe|video|audio)\b/i.test(content)) throw badRequest('Content is required', [{ path: ['content'], message: 'Content is required' }]);
  if (input.segmentId !== null) {
    try {
      segmentMatch(db, input.segmentId);
    } catch {
      throw badRequest('Segment not found', [{ path: ['segmentId'], message: 'Segment not found' }]);
    }
  }
  return { subject: input.subject, preheader: input.preheader, content, postId: input.postId ?? null, subscribersOnly: input.subscribersOnly, track: input.track, segmentId: input.segmentId };
}

export function createBroadcast(db: Db, input: BroadcastInput, userId: string): BroadcastDto {
  const row = db
    .insert(broadcasts)
    .values({ ...draftFields(db, input), slug: uniqueSlug(db, input.subject), createdBy: userId })
    .returning()
    .get();
  return toDto(row);
}

/** The version of an issue a request's If-Match names (`"broadcast-N"`, N its `version`); 400 for one that names no version of an issue. */
export const seenVersion = (request: Request): SeenVersion => ifMatchVersion(request, 'broadcast', 'the issue, as in "broadcast-1712345678901"');

const changedElsewhere = (nothing: string) => new HttpError(412, `This issue was changed in another tab or by another admin since you opened it. ${nothing} Reload it to see the changes.`);

/** 412 when the editor names a version the issue has moved on from. */
function checkSeen(row: Row, seen: SeenVersion, nothing: string): void {
  if (seen !== undefined && row.updatedAt.getTime() !== seen) throw changedElsewhere(nothing);
}

/** The next version: the time of the write, and always later than the one before (two writes in a millisecond). */
const nextVersion = (row: Row) => new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1));

/** Edits a draft; an issue that has started sending is what its readers got (409); with `seen`, only the version the editor loaded (412). */
export function updateBroadcast(db: Db, id: number, input: BroadcastInput, seen?: SeenVersion): BroadcastDto {
  const row = requireRow(db, id);
  if (row.status !== 'draft') throw conflict('Only a draft can be edited.');
  checkSeen(row, seen, 'Nothing was saved.');
  const fields = draftFields(db, input);
  // At the version read above: a write that came in between is not overwritten.
  const changed = db
    .update(broadcasts)
    .set({ ...fields, updatedAt: nextVersion(row) })
    .where(and(eq(broadcasts.id, id), eq(broadcasts.status, 'draft'), eq(broadcasts.updatedAt, row.updatedAt)))
    .run().changes;
  if (changed === 0) throw changedElsewhere('Nothing was saved.');
  return getBroadcast(db, id);
}

/** The subscribers a send started now would go to: confirmed, active and not bounced, and in its segment when it has one. */
const audience = (db: Pick<Db, 'select'>, segmentId: number | null) => (segmentId === null ? activeSubscribers : and(activeSubscribers, segmentWhere(db, segmentMatch(db, segmentId)))!);

/** How many a send started now would reach (the confirm dialog's count): everyone active, or the segment's active subscribers. */
export const audienceSize = (db: Db, segmentId: number | null = null) => db.select({ n: count() }).from(newsletterSubscribers).where(audience(db, segmentId)).get()!.n;

/** How many ledger rows one step of a send's start writes: a few milliseconds, so the server answers others between steps. */
const LEDGER_CHUNK = 2_000;
/** The drafts whose ledger is being written now (a second Send of one of them is 409 until it is done). */
const starting = new Set<number>();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Starts sending a draft: the ledger gets one row per subscriber in the audience, written a
 * chunk at a time (the server answers others between chunks), and the issue is marked sending
 * once the whole ledger is there, in the transaction that writes its last chunk. Rows left by a
 * start the server did not finish (it stopped) are dropped first: the audience is the one of now.
 * 409 unless a draft; 412 when the draft was edited since the owner saw it or while its ledger
 * was written; 400 with nobody to send to. Nothing is sent then, and the draft keeps no ledger.
 */
export async function startSending(db: Db, id: number, seen?: SeenVersion): Promise<BroadcastDto> {
  const first = requireRow(db, id);
  if (first.status !== 'draft' || starting.has(id)) throw conflict('This issue has already been sent or is sending.');
  checkSeen(first, seen, 'Nothing was sent.');
  starting.add(id);
  const version = first.updatedAt.getTime();
  // Still the draft the owner sent (not deleted, sent or edited since the start began).
  const unchanged = (tx: Pick<Db, 'select'>) => {
    const row = tx.select().from(broadcasts).where(eq(broadcasts.id, id)).get();
    if (!row) throw notFound('Broadcast not found');
    if (row.status !== 'draft') throw conflict('This issue has already been sent or is sending.');
    if (row.updatedAt.getTime() !== version) throw changedElsewhere('Nothing was sent.');
    return row;
  };
  // A draft's ledger rows, dropped a chunk at a time; never those of an issue that is sending.
  const drop = async () => {
    for (;;) {
      const row = db.select({ status: broadcasts.status }).from(broadcasts).where(eq(broadcasts.id, id)).get();
      if (row && row.status !== 'draft') return;
      const dropped = db.run(sql`delete from broadcast_recipients where rowid in (select rowid from broadcast_recipients where broadcast_id = ${id} limit ${LEDGER_CHUNK})`).changes;
      if (dropped < LEDGER_CHUNK) return;
      await nextTurn();
    }
  };
  try {
    await drop();
    let after = 0;
    let total = 0;
    for (;;) {
      const done = db.transaction((tx) => {
        const row = unchanged(tx);
        // The segment is evaluated now, a chunk of subscribers at a time: whoever matches it as the send starts is its audience.
        const written = tx.run(
          sql`insert into broadcast_recipients (broadcast_id, subscriber_id, email) select ${id}, id, email from newsletter_subscribers where ${audience(tx, row.segmentId)} and id > ${after} order by id limit ${LEDGER_CHUNK}`,
        ).changes;
        total += written;
        if (written === LEDGER_CHUNK) {
          after = tx
            .select({ last: sql<number>`max(${broadcastRecipients.subscriberId})` })
            .from(broadcastRecipients)
            .where(eq(broadcastRecipients.broadcastId, id))
            .get()!.last;
          return false;
        }
        if (total === 0) throw badRequest(row.segmentId === null ? 'There are no confirmed subscribers to send to.' : 'No confirmed subscriber is in this segment now: nothing was sent.');
        tx.update(broadcasts).set({ status: 'sending', total, startedAt: new Date(), updatedAt: new Date(), pauseReason: null }).where(eq(broadcasts.id, id)).run();
        return true;
      });
      if (done) break;
      await nextTurn();
    }
  } catch (err) {
    await drop();
    throw err;
  } finally {
    starting.delete(id);
  }
  return getBroadcast(db, id);
}

/** The issues that went out to a subscriber, as their history tells it (read from the ledger, not copied per send). */
export function issuesSentTo(db: Pick<Db, 'select'>, subscriberId: number): HistoryItemDto[] {
  return db
    .select({ at: broadcastRecipients.sentAt, subject: broadcasts.subject })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(and(eq(broadcastRecipients.subscriberId, subscriberId), eq(broadcastRecipients.status, 'sent')))
    .all()
    .map((r) => ({ at: r.at ?? new Date(0), what: 'email' as const, detail: r.subject }));
}

/** A send to more people than this with a failed DNS check of the From domain needs a second confirmation. */
export const LARGE_SEND = 5_000;

/**
 * Starts a send as the owner asked it: a large one while the From domain's DNS check fails
 * needs `confirmDns` (409 naming what is missing, with nothing changed, until it has it); with
 * `seen`, only the version the owner saw is sent (412 otherwise).
 */
export async function startSendingChecked(db: Db, id: number, confirmDns: boolean, check: () => Promise<DnsCheck>, seen?: SeenVersion): Promise<BroadcastDto> {
  const row = requireRow(db, id);
  if (row.status !== 'draft') throw conflict('This issue has already been sent or is sending.');
  checkSeen(row, seen, 'Nothing was sent.');
  const size = audienceSize(db, row.segmentId);
  if (!confirmDns && size > LARGE_SEND) {
    const dns = await check();
    if (!dns.ok) {
      const missing = dns.checks.filter((c) => !c.ok).map((c) => c.name);
      const message = `The DNS check of ${dns.domain} failed (${missing.join(', ')}): mailbox providers may reject or junk a send to ${size.toLocaleString('en-US')} people. Confirm again to send anyway.`;
      throw conflict(message, [{ path: ['confirmDns'], message }]);
    }
  }
  return await startSending(db, id, seen);
}

/** Moves a broadcast from one of `from` to `to`; 409 from any other status. */
function move(db: Db, id: number, from: Row['status'][], to: Row['status'], extra: Partial<Row> = {}): BroadcastDto {
  requireRow(db, id);
  const changed = db
    .update(broadcasts)
    .set({ status: to, updatedAt: new Date(), ...extra })
    .where(and(eq(broadcasts.id, id), inArray(broadcasts.status, from)))
    .run().changes;
  if (changed === 0) throw conflict(`Only a broadcast that is ${from.join(' or ')} can be ${to === 'sending' ? 'resumed' : to}.`);
  return getBroadcast(db, id);
}

export const pauseBroadcast = (db: Db, id: number) => move(db, id, ['sending'], 'paused');
/** Resumes a paused send; recipients waiting after a failure go now too, the owner having asked. */
export function resumeBroadcast(db: Db, id: number): BroadcastDto {
  move(db, id, ['paused'], 'sending', { pauseReason: null });
  db.update(broadcastRecipients)
    .set({ nextAttemptAt: new Date() })
    .where(and(eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.status, 'pending')))
    .run();
  return getBroadcast(db, id);
}
export const cancelBroadcast = (db: Db, id: number) => move(db, id, ['draft', 'sending', 'paused'], 'cancelled', { finishedAt: new Date() });

/** Puts the failed recipients back in line (their tries start again) and sends again. */
export function retryFailed(db: Db, id: number): BroadcastDto {
  const row = requireRow(db, id);
  if (row.status === 'draft' || row.status === 'cancelled') throw conflict('Only a broadcast that has been sent can retry its failed recipients.');
  db.transaction((tx) => {
    const n = tx
      .update(broadcastRecipients)
      .set({ status: 'pending', tries: 0, lastError: null, nextAttemptAt: new Date() })
      .where(and(eq(broadcastRecipients.broadcastId, id), eq(broadcastRecipients.status, 'failed')))
      .run().changes;
    // Touched even while sending: the sender ends the wait after its last failure when the owner asks.
    if (n > 0)
      tx.update(broadcasts)
        .set({ ...(row.status === 'sent' && { status: 'sending', finishedAt: null }), updatedAt: new Date() })
        .where(eq(broadcasts.id, id))
        .run();
  });
  return getBroadcast(db, id);
}

/** An issue that has gone out (or is going out): its readers may open it in a browser. */
const published = inArray(broadcasts.status, ['sending', 'paused', 'sent']);

/** The cached pages an issue shows on once it goes out (the archive, the issue's page, the feed, the sitemap): dropped when a send starts or is cancelled. */
export const archivePages = (key: string): boolean => key.startsWith('/newsletter') || key.startsWith('/sitemap');

/** What the archive, its feed and the sitemap list: issues that have gone out and are not for subscribers only, newest first. */
const publicIssue = and(published, eq(broadcasts.subscribersOnly, false));
const NEWEST = [desc(broadcasts.startedAt), desc(broadcasts.id)];

/** The archive: each public issue's title, preheader, address and date. */
export function listPublishedIssues(db: Db, limit = 200) {
  return db
    .select({ subject: broadcasts.subject, preheader: broadcasts.preheader, slug: broadcasts.slug, startedAt: broadcasts.startedAt })
    .from(broadcasts)
    .where(publicIssue)
    .orderBy(...NEWEST)
    .limit(limit)
    .all();
}

/** The same, with each issue's body (for the feed; the archive page and the sitemap do not read bodies). */
export function listPublishedIssuesWithContent(db: Db, limit: number) {
  return db
    .select({ subject: broadcasts.subject, preheader: broadcasts.preheader, slug: broadcasts.slug, startedAt: broadcasts.startedAt, content: broadcasts.content })
    .from(broadcasts)
    .where(publicIssue)
    .orderBy(...NEWEST)
    .limit(limit)
    .all();
}

/** One issue that has gone out, by its address, or undefined (a draft, a cancelled one, none). */
export function getPublishedIssue(db: Db, slug: string) {
  return db
    .select({ subject: broadcasts.subject, preheader: broadcasts.preheader, content: broadcasts.content, startedAt: broadcasts.startedAt, subscribersOnly: broadcasts.subscribersOnly })
    .from(broadcasts)
    .where(and(eq(broadcasts.slug, slug), published))
    .get();
}

/** Counts one open of an issue that tracks them (nothing is kept of who opened it). */
/** Whether the issue exists and counts its opens and clicks. */
export const tracksCounts = (db: Db, id: number): boolean =>
  db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(and(eq(broadcasts.id, id), eq(broadcasts.track, true)))
    .get() !== undefined;

export function countOpen(db: Db, id: number): void {
  db.update(broadcasts)
    .set({ opens: sql`${broadcasts.opens} + 1` })
    .where(and(eq(broadcasts.id, id), eq(broadcasts.track, true)))
    .run();
}

/** Counts one click of an issue that tracks them (nothing is kept of who clicked). */
export function countClick(db: Db, id: number): void {
  db.update(broadcasts)
    .set({ clicks: sql`${broadcasts.clicks} + 1` })
    .where(and(eq(broadcasts.id, id), eq(broadcasts.track, true)))
    .run();
}
