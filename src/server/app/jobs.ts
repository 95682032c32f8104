// Work the server does on its own, with no request to start it: it runs in the serving process
// (scripts/serve.ts starts it), every job on the one runner (#server/jobs/runner.ts).
import { getDb } from '#server/db.ts';
import { assignLegacyGuids } from '#server/content/legacy-guids.ts';
import { BroadcastSender } from '#server/broadcasts/sender.ts';
import { DailyLimit } from '#server/broadcasts/daily-limit.ts';
import { Throttle } from '#server/broadcasts/throttle.ts';
import { SequenceSender } from '#server/sequences/sender.ts';
import { SEQUENCES_JOB } from '#server/sequences/service.ts';
import { env } from '#server/env.ts';
import { logger } from '#server/log.ts';
import { dkimKey, OutboxSender, retryPendingNow, smtpTransport, type DkimKey } from '#server/mail/sender.ts';
import { mailFrom } from '#server/site/mail.ts';
import { contentChanged } from '#server/http/pages/page-cache.ts';
import { sweepAbandonedOrders } from '#server/commerce/abandoned-orders.ts';
import { ABANDONED_CHECKOUTS_JOB, closeAbandonedCheckouts } from '#server/commerce/billing/abandoned-checkouts.ts';
import { nextDue, publishDue } from '#server/content/publishing.ts';
import { processNextImage } from '#server/media/images.ts';
import { closeProductCheckouts, PRODUCT_CHECKOUTS_JOB } from '#server/commerce/product-checkouts.ts';
import { refreshBusyTimes } from '#server/booking/calendar.ts';
import { queueDueReminders } from '#server/booking/reminders.ts';
import { reloadCountryDb } from '#server/analytics/country.ts';
import { rollUpDownloads } from '#server/analytics/downloads.ts';
import { pruneAnalytics } from '#server/analytics/retention.ts';
import { pruneAudit } from '#server/accounts/security/audit.ts';
import { checkKitConfirmations, KIT_CONFIRMATIONS_JOB, KIT_UNSUBSCRIBES_JOB, passOnUnsubscribes, retryUnsubscribesNow } from '#server/newsletter/kit.ts';
import { importStep, SUBSCRIBER_IMPORT_JOB } from '#server/newsletter/import/subscriber-import.ts';
import { JobRunner, shareRunner } from '#server/jobs/runner.ts';

const HOUR_MS = 60 * 60_000;
/** How often the outbox is looked at for mail that is due. */
const MAIL_POLL_MS = 1_000;
/** The longest the scheduler sleeps: a schedule set meanwhile is seen within this. */
const SCHEDULE_POLL_MS = 10_000;
/** How often the image queue is looked at when it was empty. */
const IMAGE_POLL_MS = 2_000;
/** How often the newsletter sender looks for an issue to send when there was none. */
const BROADCAST_IDLE_MS = 500;
/** How often sequence steps that have come due are looked for (an enrolment or an edit wakes the job at once). */
const SEQUENCES_IDLE_MS = 1_000;
/** How often subscriber imports are looked for when none ran (an upload wakes the job at once). */
const IMPORT_POLL_MS = 5_000;
/** How often booking reminders that have come due are queued. */
const REMINDER_POLL_MS = 5_000;
/** How often GEOIP_DB's file is looked at for a new edition (one stat call). */
const GEOIP_POLL_MS = 5_000;
/** How often the unsubscribes waiting for Kit are looked at when none was due. */
const KIT_POLL_MS = 60_000;
/** How often Kit is asked whether sign-ups through its form have confirmed (and when the owner opens the subscriber list). */
const KIT_CONFIRM_POLL_MS = 5 * 60_000;
/** How often package checkouts nobody paid are looked at (a limited coupon's are closed at Stripe after an hour, others after a day). */
const ABANDONED_CHECKOUTS_POLL_MS = 5 * 60_000;
/** How often the owner's calendar is read for busy times. */
const CALENDAR_POLL_MS = 5 * 60_000;
/** How soon a calendar that could not be read is tried again. */
const CALENDAR_RETRY_MS = 60_000;

let runner: JobRunner | undefined;
/** What stopping waits for beyond the steps under way. */
const drains: (() => Promise<void>)[] = [];

/**
 * Starts the background jobs: abandoned checkouts' pending orders are removed hourly, product
 * checkouts nobody paid (or whose product changed) are closed at Stripe, and
 * package checkouts nobody paid are closed at Stripe (after an hour with a limited coupon, else
 * a day); scheduled
 * posts and episodes are published when due; smaller copies of uploaded images are made; with
 * booking reminders are queued when due and the owner's calendar is read for busy times; with
 * SMTP_URL set, the outbox is delivered (what waited for a retry is tried at once on start) and
 * newsletter issues and sequence steps are sent from their ledgers.
 */
export function startBackgroundJobs(): void {
  // Rows from before feed GUIDs were stored keep the GUID they were published under, taken
  // with the SITE_URL in force when the upgraded server first starts.
  assignLegacyGuids(getDb(), env().SITE_URL);
  const jobs = new JobRunner();
  runner = jobs;
  shareRunner(jobs);
  const db = getDb();
  jobs.start({ name: 'sweep-abandoned-orders', firstInMs: 5_000, idleMs: HOUR_MS, busyMs: HOUR_MS, step: () => sweepAbandonedOrders(db) });
  // Package checkouts nobody paid are closed at Stripe: a limited coupon's after an hour (freeing its use), others after a day.
  const stripe = async () => (await import('#server/commerce/stripe.ts')).getStripe();
  jobs.start({ name: ABANDONED_CHECKOUTS_JOB, firstInMs: 25_000, idleMs: ABANDONED_CHECKOUTS_POLL_MS, busyMs: 0, step: () => closeAbandonedCheckouts(db, stripe) });
  // Product checkouts nobody paid are closed at Stripe: at once when the product changed (an edit wakes it), else after a day.
  jobs.start({ name: PRODUCT_CHECKOUTS_JOB, firstInMs: 5_000, idleMs: ABANDONED_CHECKOUTS_POLL_MS, busyMs: 0, step: () => closeProductCheckouts(db, stripe) });
  jobs.start({ name: 'publish-scheduled', idleMs: SCHEDULE_POLL_MS, step: () => publishScheduled() });
  jobs.start({ name: 'image-variants', idleMs: IMAGE_POLL_MS, step: () => makeImageCopies() });
  // Analytics: 30 days of page views, then daily totals; a day's salt forgotten within the hour after it ends.
  jobs.start({ name: 'analytics-retention', firstInMs: 10_000, idleMs: HOUR_MS, busyMs: HOUR_MS, quiet: true, step: () => pruneAnalytics(db) });
  // Podcast listeners: 30 days, then each day's counts per episode and app; a backlog a day a second.
  jobs.start({ name: 'downloads-rollup', firstInMs: 20_000, idleMs: HOUR_MS, busyMs: 1_000, quiet: true, step: () => rollUpDownloads(db) });
  // A new edition of the country database, put in GEOIP_DB's place, is read within seconds.
  if (env().GEOIP_DB) jobs.start({ name: 'geoip-reload', idleMs: GEOIP_POLL_MS, busyMs: GEOIP_POLL_MS, quiet: true, step: () => (reloadCountryDb() ? 1 : 0) });
  // Audit rows are kept two years.
  jobs.start({ name: 'audit-retention', firstInMs: 15_000, idleMs: HOUR_MS, busyMs: HOUR_MS, quiet: true, step: () => pruneAudit(db) });
  // Subscriber imports, a batch of rows a step; one cut off by a restart goes on from its last batch.
  jobs.start({ name: SUBSCRIBER_IMPORT_JOB, idleMs: IMPORT_POLL_MS, busyMs: 0, quiet: true, step: () => importStep(db) });
  jobs.start({ name: 'booking-reminders', idleMs: REMINDER_POLL_MS, busyMs: 0, step: () => queueDueReminders(db) });
  // A Kit form without the key sends nothing to Kit: the site confirms sign-ups itself.
  if (env().KIT_FORM_ID && !env().KIT_API_KEY) logger.warn("KIT_FORM_ID is ignored without KIT_API_KEY: new subscribers get the site's own confirmation e-mail (when SMTP_URL is set)");
  // Unsubscribes passed on to Kit; one queued wakes the job at once.
  if (env().KIT_API_KEY) {
    retryUnsubscribesNow(db);
    jobs.start({ name: KIT_UNSUBSCRIBES_JOB, idleMs: KIT_POLL_MS, busyMs: 0, step: () => passOnUnsubscribes(db) });
    // Sign-ups through the Kit form get issues once Kit says they confirmed (those made before
    // KIT_FORM_ID was removed too).
    jobs.start({ name: KIT_CONFIRMATIONS_JOB, firstInMs: 30_000, idleMs: KIT_CONFIRM_POLL_MS, busyMs: KIT_CONFIRM_POLL_MS, step: () => checkKitConfirmations(db) });
  }
  // Read now, then every five minutes, and at once when the owner changes the address.
  jobs.start({
    name: 'booking-calendar',
    idleMs: CALENDAR_POLL_MS,
    busyMs: CALENDAR_POLL_MS,
    quiet: true,
    step: async () => {
      try {
        await refreshBusyTimes(db);
        return 0;
      } catch (err) {
        // Booking is closed until the calendar reads again: try again in a minute.
        logger.warn({ job: 'booking-calendar', err: (err as Error).message }, "the owner's calendar could not be read");
        return { done: 0, nextInMs: CALENDAR_RETRY_MS };
      }
    },
  });
  const e = env();
  if (e.SMTP_URL) {
    const dkim = readDkimKey(e);
    const from = () => mailFrom(e);
    const mail = new OutboxSender(db, smtpTransport(e.SMTP_URL, dkim), from, e.MAIL_RETRY_MS);
    retryPendingNow(db);
    jobs.start({ name: 'mail', idleMs: MAIL_POLL_MS, busyMs: MAIL_POLL_MS, step: () => mail.deliver() });
    // Issues and sequences share one pace: together they never go above BROADCAST_RATE.
    const throttle = new Throttle(e.BROADCAST_RATE);
    // 2 s doubling up to 30 s, shorter when MAIL_RETRY_MS is.
    const retry = { retryBaseMs: Math.min(e.MAIL_RETRY_MS, 2_000), maxWaitMs: Math.min(e.MAIL_RETRY_MS * 4, 30_000) };
    // And one daily limit: it counts the messages of both.
    const daily = new DailyLimit(db, e.BROADCAST_DAILY_LIMIT ?? null);
    const issues = new BroadcastSender(db, smtpTransport(e.SMTP_URL, dkim, true), from, throttle, retry, daily);
    issues.recover();
    drains.push(() => issues.drain());
    jobs.start({ name: 'broadcast', idleMs: BROADCAST_IDLE_MS, quiet: true, step: async () => ((await issues.step()) ? 1 : 0) });
    const drips = new SequenceSender(db, smtpTransport(e.SMTP_URL, dkim, true), from, throttle, { ...retry, timeZone: e.SITE_TIMEZONE }, daily);
    drips.recover();
    drains.push(() => drips.drain());
    jobs.start({ name: SEQUENCES_JOB, idleMs: SEQUENCES_IDLE_MS, quiet: true, step: async () => ((await drips.step()) ? 1 : 0) });
  }
}

/** Stops starting new background work and waits for what is under way (an e-mail being sent). */
export async function stopBackgroundJobs(): Promise<void> {
  await runner?.stop();
  // Messages a job handed to SMTP without waiting for the answer are answered and recorded too.
  await Promise.all(drains.splice(0).map((drain) => drain()));
  runner = undefined;
  shareRunner(null);
}

/** The DKIM key, or the process ends with the reason: mail that claims a signature it cannot make is worse than none. */
function readDkimKey(e: Parameters<typeof dkimKey>[0]): DkimKey | null {
  try {
    return dkimKey(e);
  } catch (err) {
    logger.fatal({ err: (err as Error).message }, 'DKIM_PRIVATE_KEY is not a readable PEM private key (the key itself, or the path of its file)');
    process.exit(1);
  }
}

/**
 * Publishes scheduled posts and episodes when their time comes, with no request needed: what
 * fell due while the server was down goes out on start, then the job wakes at the next due time
 * (or every SCHEDULE_POLL_MS), and a write that sets a schedule wakes it. The page cache is
 * dropped whenever something went public.
 */
function publishScheduled(): { done: number; nextInMs: number } {
  const db = getDb();
  const published = publishDue(db);
  // Something new went public: it shows at the very next request.
  if (published > 0) contentChanged({ scope: 'all', now: true });
  const next = nextDue(db);
  return { done: published, nextInMs: next ? Math.max(0, Math.min(SCHEDULE_POLL_MS, next.getTime() - Date.now())) : SCHEDULE_POLL_MS };
}

/** Makes the smaller copies of uploaded images, up to 20 a step; the cached pages are refreshed after a batch so they offer them. */
async function makeImageCopies(): Promise<number> {
  let made = 0;
  while (made < 20 && (await processNextImage(getDb()))) made += 1;
  if (made > 0) contentChanged({ scope: 'all' });
  return made;
}
