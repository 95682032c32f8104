// Work the server does on its own, on a timer, with no request to start it: it runs in the
// serving process (scripts/serve.ts starts it) and never keeps the process alive by itself.
import { getDb } from '#db/client.ts';
import { env } from './env.ts';
import { logger } from './log.ts';
import { deliverDueMail, mailFrom, retryPendingNow, smtpTransport } from './mail/sender.ts';
import { sweepAbandonedOrders } from './services/abandoned-orders.ts';

const HOUR_MS = 60 * 60_000;
/** How often the outbox is looked at for mail that is due. */
const MAIL_POLL_MS = 1_000;

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
  const e = env();
  if (e.SMTP_URL) startMailSender(e.SMTP_URL, mailFrom(e), e.MAIL_RETRY_MS);
}

function startMailSender(smtpUrl: string, from: string, retryBaseMs: number): void {
  const transport = smtpTransport(smtpUrl);
  retryPendingNow(getDb());
  const tick = async () => {
    try {
      const sent = await deliverDueMail(getDb(), transport, from, retryBaseMs);
      if (sent > 0) logger.info({ job: 'mail', sent }, 'background job');
    } catch (err) {
      logger.error({ err, job: 'mail' }, 'background job failed');
    }
    setTimeout(() => void tick(), MAIL_POLL_MS).unref();
  };
  void tick();
}
