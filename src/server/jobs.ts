// Work the server does on its own, on a timer, with no request to start it: it runs in the
// serving process (scripts/serve.ts starts it) and never keeps the process alive by itself.
import { getDb } from '#db/client.ts';
import { BroadcastSender } from './broadcasts/sender.ts';
import { env } from './env.ts';
import { logger } from './log.ts';
import { dkimKey, mailFrom, OutboxSender, retryPendingNow, smtpTransport, type DkimKey } from './mail/sender.ts';
import { contentChanged } from './http/page-cache.ts';
import { sweepAbandonedOrders } from './services/abandoned-orders.ts';
import { nextDue, onScheduleChange, publishDue } from './services/publishing.ts';
import { processNextImage } from './services/images.ts';

const HOUR_MS = 60 * 60_000;
/** How often the outbox is looked at for mail that is due. */
const MAIL_POLL_MS = 1_000;
/** The longest the scheduler sleeps: a schedule set meanwhile is seen within this. */
const SCHEDULE_POLL_MS = 10_000;

function run(name: string, job: () => number): void {
  try {
    const done = job();
    if (done > 0) logger.info({ job: name, done }, 'background job');
  } catch (err) {
    logger.error({ err, job: name }, 'background job failed');
  }
}

/**
 * Starts the periodic jobs: abandoned checkouts' pending orders are removed hourly; with
 * SMTP_URL set, the outbox is delivered (what waited for a retry is tried at once on start).
 */
export function startBackgroundJobs(): void {
  const sweep = () => run('sweep-abandoned-orders', () => sweepAbandonedOrders(getDb()));
  setTimeout(sweep, 5_000).unref();
  setInterval(sweep, HOUR_MS).unref();
  startScheduler();
  startImageWorker();
  const e = env();
  if (e.SMTP_URL) {
    const dkim = readDkimKey(e);
    startMailSender(e.SMTP_URL, dkim, () => mailFrom(e), e.MAIL_RETRY_MS);
    broadcastSender = new BroadcastSender(getDb(), smtpTransport(e.SMTP_URL, dkim, true), () => mailFrom(e), {
      rate: e.BROADCAST_RATE,
      dailyLimit: e.BROADCAST_DAILY_LIMIT ?? null,
      retryBaseMs: Math.min(e.MAIL_RETRY_MS, 2_000),
    });
    broadcastSender.start();
  }
}

let mailSender: OutboxSender | undefined;
let broadcastSender: BroadcastSender | undefined;

/** The DKIM key, or the process ends with the reason: mail that claims a signature it cannot make is worse than none. */
function readDkimKey(e: Parameters<typeof dkimKey>[0]): DkimKey | null {
  try {
    return dkimKey(e);
  } catch (err) {
    logger.fatal({ err: (err as Error).message }, 'DKIM_PRIVATE_KEY is not a readable PEM private key (the key itself, or the path of its file)');
    process.exit(1);
  }
}

function startMailSender(smtpUrl: string, dkim: DkimKey | null, from: () => string, retryBaseMs: number): void {
  const sender = new OutboxSender(getDb(), smtpTransport(smtpUrl, dkim), from, retryBaseMs);
  mailSender = sender;
  retryPendingNow(getDb());
  const tick = async () => {
    try {
      const sent = await sender.deliver();
      if (sent > 0) logger.info({ job: 'mail', sent }, 'background job');
    } catch (err) {
      logger.error({ err, job: 'mail' }, 'background job failed');
    }
    if (mailSender === sender) setTimeout(() => void tick(), MAIL_POLL_MS).unref();
  };
  void tick();
}

/** Stops starting new background work and waits for what is under way (an e-mail being sent). */
export async function stopBackgroundJobs(): Promise<void> {
  const sender = mailSender;
  mailSender = undefined;
  await Promise.all([sender?.idle(), broadcastSender?.stop()]);
}

/**
 * Publishes scheduled posts and episodes when their time comes, with no request needed: what
 * fell due while the server was down goes out on start, then a timer wakes at the next due
 * time (or every SCHEDULE_POLL_MS), and a write that sets a schedule wakes it. The page cache
 * is dropped whenever something went public.
 */
function startScheduler(): void {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    clearTimeout(timer);
    let delay = SCHEDULE_POLL_MS;
    try {
      const db = getDb();
      const published = publishDue(db);
      if (published > 0) {
        // Something new went public: it shows at the very next request.
        contentChanged({ scope: 'all', now: true });
        logger.info({ job: 'publish-scheduled', done: published }, 'background job');
      }
      const next = nextDue(db);
      if (next) delay = Math.max(0, Math.min(delay, next.getTime() - Date.now()));
    } catch (err) {
      logger.error({ err, job: 'publish-scheduled' }, 'background job failed');
    }
    timer = setTimeout(tick, delay).unref();
  };
  onScheduleChange(tick);
  tick();
}

/** How often the image queue is looked at when it was empty. */
const IMAGE_POLL_MS = 2_000;

/**
 * Makes the smaller copies of uploaded images, one image at a time, so pages can offer them;
 * the cached pages are refreshed after a batch so they offer them.
 */
function startImageWorker(): void {
  const tick = async () => {
    let made = 0;
    try {
      while (made < 20 && (await processNextImage(getDb()))) made += 1;
      if (made > 0) {
        contentChanged({ scope: 'all' });
        logger.info({ job: 'image-variants', done: made }, 'background job');
      }
    } catch (err) {
      logger.error({ err, job: 'image-variants' }, 'background job failed');
    }
    setTimeout(() => void tick(), made > 0 ? 0 : IMAGE_POLL_MS).unref();
  };
  void tick();
}
